// Command k8stools is a multi-call binary: etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler and kubectl linked once. It dispatches on the name it was invoked as
// (symlinks), or on its first argument when invoked as "k8stools <name> [flags]".
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"go.etcd.io/etcd/server/v3/etcdmain"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	kubectlcmd "k8s.io/kubectl/pkg/cmd"
	kubectlutil "k8s.io/kubectl/pkg/cmd/util"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
	kcm "k8s.io/kubernetes/cmd/kube-controller-manager/app"
	scheduler "k8s.io/kubernetes/cmd/kube-scheduler/app"
)

func main() {
	name := filepath.Base(os.Args[0])
	if name == "k8stools" && len(os.Args) > 1 {
		// Re-shape os.Args as if invoked through the symlink: kubectl reads os.Args itself.
		os.Args = append([]string{os.Args[1]}, os.Args[2:]...)
		name = os.Args[0]
	}
	args := os.Args[1:]
	switch name {
	case "etcd":
		etcdmain.Main(os.Args)
	case "kube-apiserver":
		c := apiserver.NewAPIServerCommand()
		c.SetArgs(args)
		os.Exit(cli.Run(c))
	case "kube-controller-manager":
		c := kcm.NewControllerManagerCommand()
		c.SetArgs(args)
		os.Exit(cli.Run(c))
	case "kube-scheduler":
		c := scheduler.NewSchedulerCommand()
		c.SetArgs(args)
		os.Exit(cli.Run(c))
	case "kubectl":
		c := kubectlcmd.NewDefaultKubectlCommand()
		if err := cli.RunNoErrOutput(c); err != nil {
			kubectlutil.CheckErr(err)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: k8stools etcd|kube-apiserver|kube-controller-manager|kube-scheduler|kubectl [flags]")
		os.Exit(2)
	}
}
