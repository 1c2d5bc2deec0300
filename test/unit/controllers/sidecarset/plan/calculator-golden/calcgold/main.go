// calcgold evaluates SidecarSet resourcesPolicy expressions with OpenKruise v1.9.0's own pkg/util/calculator and
// prints one JSON answer per JSON case line (see ../README.md).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/openkruise/kruise/pkg/util/calculator"
	"k8s.io/apimachinery/pkg/api/resource"
)

type variable struct {
	Quantity *string  `json:"quantity,omitempty"`
	Number   *float64 `json:"number,omitempty"`
}

type testCase struct {
	Expr string              `json:"expr"`
	Vars map[string]variable `json:"vars,omitempty"`
}

type answer struct {
	Expr       string              `json:"expr"`
	Vars       map[string]variable `json:"vars,omitempty"`
	Result     *string             `json:"result,omitempty"`
	IsQuantity bool                `json:"isQuantity,omitempty"`
	Error      *string             `json:"error,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	for in.Scan() {
		var c testCase
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		vars := map[string]*calculator.Value{}
		for k, v := range c.Vars {
			if v.Quantity != nil {
				vars[k] = &calculator.Value{IsQuantity: true, Quantity: resource.MustParse(*v.Quantity)}
			} else if v.Number != nil {
				vars[k] = &calculator.Value{Number: *v.Number}
			}
		}
		calc := calculator.NewCalculator()
		calc.SetVariables(vars)
		a := answer{Expr: c.Expr, Vars: c.Vars}
		if v, err := calc.Parse(c.Expr); err != nil {
			msg := err.Error()
			a.Error = &msg
		} else {
			s := v.String()
			a.Result = &s
			a.IsQuantity = v.IsQuantity
		}
		_ = out.Encode(a)
	}
}
