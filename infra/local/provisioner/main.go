// Command hostpath-provisioner: the local control plane's dynamic volume provisioner, in the shape of the
// hostpath example of sigs.k8s.io/sig-storage-lib-external-provisioner (its ProvisionController does the
// provisioning protocol: it picks up claims the PV controller annotated with this provisioner's name, creates
// their PersistentVolumes with a claimRef, and deletes released ones). A volume is a folder under --root; nothing
// mounts it (kwok runs no containers). Binding the claim to the volume is kube-controller-manager's
// persistentvolume-binder-controller; status.capacity after a resize is a kwok stage (infra/local/kwok-stages.yaml).
package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	"sigs.k8s.io/sig-storage-lib-external-provisioner/v11/controller"
)

// hostPathProvisioner provisions a folder under root per claim.
type hostPathProvisioner struct {
	root string
}

// Provision creates the folder of options.PVName and returns its PersistentVolume: the claim's requested storage
// as capacity, its access modes and volume mode, the class's reclaim policy and mount options.
func (p *hostPathProvisioner) Provision(ctx context.Context, options controller.ProvisionOptions) (*v1.PersistentVolume, controller.ProvisioningState, error) {
	dir := filepath.Join(p.root, options.PVName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, controller.ProvisioningFinished, err
	}
	reclaim := v1.PersistentVolumeReclaimDelete
	if options.StorageClass.ReclaimPolicy != nil {
		reclaim = *options.StorageClass.ReclaimPolicy
	}
	hostPathType := v1.HostPathDirectoryOrCreate
	pv := &v1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: options.PVName},
		Spec: v1.PersistentVolumeSpec{
			PersistentVolumeReclaimPolicy: reclaim,
			AccessModes:                   options.PVC.Spec.AccessModes,
			VolumeMode:                    options.PVC.Spec.VolumeMode,
			MountOptions:                  options.StorageClass.MountOptions,
			Capacity: v1.ResourceList{
				v1.ResourceStorage: options.PVC.Spec.Resources.Requests[v1.ResourceStorage],
			},
			PersistentVolumeSource: v1.PersistentVolumeSource{
				HostPath: &v1.HostPathVolumeSource{Path: dir, Type: &hostPathType},
			},
		},
	}
	return pv, controller.ProvisioningFinished, nil
}

// Delete removes the folder of a released volume (the ProvisionController then deletes the PV object).
func (p *hostPathProvisioner) Delete(ctx context.Context, volume *v1.PersistentVolume) error {
	if volume.Spec.HostPath == nil {
		return &controller.IgnoredError{Reason: "not a hostPath volume"}
	}
	if filepath.Dir(volume.Spec.HostPath.Path) != p.root {
		return &controller.IgnoredError{Reason: "not under this provisioner's root"}
	}
	return os.RemoveAll(volume.Spec.HostPath.Path)
}

func main() {
	klog.InitFlags(nil)
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the cluster")
	name := flag.String("provisioner-name", "kruiseless.io/hostpath", "the StorageClasses' provisioner field")
	root := flag.String("root", "", "folder the volumes are created in")
	flag.Parse()
	if *kubeconfig == "" || *root == "" {
		klog.ErrorS(errors.New("--kubeconfig and --root are required"), "bad flags")
		os.Exit(2)
	}
	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		klog.ErrorS(err, "cannot load kubeconfig")
		os.Exit(1)
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		klog.ErrorS(err, "cannot create client")
		os.Exit(1)
	}
	if err := os.MkdirAll(*root, 0o755); err != nil {
		klog.ErrorS(err, "cannot create root")
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	pc := controller.NewProvisionController(ctx, client, *name, &hostPathProvisioner{root: filepath.Clean(*root)},
		controller.LeaderElection(false),
	)
	klog.InfoS("hostpath-provisioner running", "provisioner", *name, "root", *root)
	pc.Run(ctx)
}
