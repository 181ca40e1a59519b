// Command terraform-provider-dwk is the dwk Terraform provider. Terraform
// starts it; run it with -debug to attach a debugger (it prints the
// TF_REATTACH_PROVIDERS value to give Terraform).
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/dwk/fleet/appliance/process/buildinfo"
	"github.com/dwk/fleet/provider"
)

func main() {
	debug := flag.Bool("debug", false, "run with support for debuggers like delve")
	flag.Parse()
	err := providerserver.Serve(context.Background(), provider.New(buildinfo.Version()), providerserver.ServeOpts{
		Address: provider.Address,
		Debug:   *debug,
	})
	if err != nil {
		log.Fatal(err)
	}
}
