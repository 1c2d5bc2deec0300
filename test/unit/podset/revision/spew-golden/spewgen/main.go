// spewgen: the Go side of Kruiseless's DaemonSet revision hash (lib/podset/revision/spewHash.ts).
//
//	spewgen schema        the struct layout of core/v1 PodTemplateSpec as the TypeScript renderer reads it
//	spewgen hash < lines  per line of PodTemplateSpec JSON: the hash (and, with -dump, the spew text)
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"reflect"
	"sort"
	"strings"

	appsv1alpha1 "github.com/openkruise/kruise/apis/apps/v1alpha1"
	appsv1beta1 "github.com/openkruise/kruise/apis/apps/v1beta1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/dump"
	"k8s.io/apimachinery/pkg/util/rand"
)

type field struct {
	Name   string `json:"name"`
	JSON   string `json:"json,omitempty"`
	Inline bool   `json:"inline,omitempty"`
	Type   string `json:"type"`
	// OmitEmpty: the tag has omitempty (encoding/json leaves the field out when it holds its type's empty value).
	OmitEmpty bool `json:"omitempty,omitempty"`
}

type typeInfo struct {
	Kind   string  `json:"kind"`
	Elem   string  `json:"elem,omitempty"`
	Key    string  `json:"key,omitempty"`
	Fields []field `json:"fields,omitempty"`
}

// seen: the reflect.Type each name was given to, so that two types printing the same name (metav1 and core/v1 are
// both "v1") cannot share one layout unnoticed.
var seen = map[string]reflect.Type{}

func walk(t reflect.Type, out map[string]typeInfo) {
	name := t.String()
	if prev, ok := seen[name]; ok {
		if prev != t {
			panic("two Go types named " + name + ": " + prev.PkgPath() + " and " + t.PkgPath())
		}
		return
	}
	seen[name] = t
	info := typeInfo{Kind: t.Kind().String()}
	out[name] = info
	switch t.Kind() {
	case reflect.Ptr, reflect.Slice, reflect.Array:
		info.Elem = t.Elem().String()
		walk(t.Elem(), out)
	case reflect.Map:
		info.Key = t.Key().String()
		info.Elem = t.Elem().String()
		walk(t.Key(), out)
		walk(t.Elem(), out)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := strings.Split(f.Tag.Get("json"), ",")
			fi := field{Name: f.Name, Type: f.Type.String()}
			if tag[0] == "-" {
				fi.JSON = ""
			} else if tag[0] == "" && len(tag) > 1 && tag[1] == "inline" {
				fi.Inline = true
			} else if tag[0] == "" && f.Anonymous {
				fi.Inline = true
			} else {
				fi.JSON = tag[0]
			}
			for _, opt := range tag[1:] {
				if opt == "omitempty" {
					fi.OmitEmpty = true
				}
			}
			info.Fields = append(info.Fields, fi)
			walk(f.Type, out)
		}
	}
	out[name] = info
}

// roots: the types `schema` lays out (with every type they reach) and `roundtrip` decodes into, by the name
// reflect prints for them.
var roots = map[string]interface{}{
	"v1.PodTemplateSpec":          v1.PodTemplateSpec{},
	"v1.PersistentVolumeClaim":    v1.PersistentVolumeClaim{},
	"v1alpha1.CloneSetSpec":       appsv1alpha1.CloneSetSpec{},
	"v1beta1.CloneSetSpec":        appsv1beta1.CloneSetSpec{},
	"v1beta1.DaemonSetSpec":       appsv1beta1.DaemonSetSpec{},
	"v1beta1.BroadcastJobSpec":    appsv1beta1.BroadcastJobSpec{},
	"v1beta1.AdvancedCronJobSpec": appsv1beta1.AdvancedCronJobSpec{},
	"v1beta1.StatefulSetSpec":     appsv1beta1.StatefulSetSpec{},
}

func main() {
	switch os.Args[1] {
	case "schema":
		out := map[string]typeInfo{}
		for _, v := range roots {
			walk(reflect.TypeOf(v), out)
		}
		names := make([]string, 0, len(out))
		for n := range out {
			names = append(names, n)
		}
		sort.Strings(names)
		b, _ := json.Marshal(out)
		fmt.Println(string(b))
	case "roundtrip":
		// per line {"type": <a key of roots>, "value": <JSON>}: the value decoded into that Go type and marshalled
		// again, as OpenKruise's mutating webhooks write an object back.
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var in struct {
				Type  string          `json:"type"`
				Value json.RawMessage `json:"value"`
			}
			if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
				fmt.Println("error:", err)
				continue
			}
			root, ok := roots[in.Type]
			if !ok {
				fmt.Println("error: unknown type", in.Type)
				continue
			}
			v := reflect.New(reflect.TypeOf(root))
			if err := json.Unmarshal(in.Value, v.Interface()); err != nil {
				fmt.Println("error:", err)
				continue
			}
			b, _ := json.Marshal(v.Interface())
			fmt.Println(string(b))
		}
	case "hash":
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var in struct {
				Template       v1.PodTemplateSpec `json:"template"`
				CollisionCount *int32             `json:"collisionCount"`
			}
			if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
				fmt.Println("error:", err)
				continue
			}
			text := dump.ForHash(in.Template)
			h := fnv.New32a()
			h.Write([]byte(text))
			if in.CollisionCount != nil {
				b := make([]byte, 8)
				binary.LittleEndian.PutUint32(b, uint32(*in.CollisionCount))
				h.Write(b)
			}
			out := map[string]string{"hash": rand.SafeEncodeString(fmt.Sprint(h.Sum32()))}
			if len(os.Args) > 2 && os.Args[2] == "-dump" {
				out["spew"] = text
			}
			b, _ := json.Marshal(out)
			fmt.Println(string(b))
		}
	}
}
