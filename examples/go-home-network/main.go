// Command go-home-network is the program `pulumi up` builds and runs for this project (runtime: go; see
// README.md).
package main

import (
	"github.com/pulumi-dns-account/pulumi-dns-account/examples/go-home-network/homenetwork"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(homenetwork.Program)
}
