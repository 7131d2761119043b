// Command run runs this project's program (package homenetwork) under the Pulumi CLI through the
// Automation API:
//
//	go run ./run up|preview|refresh|destroy [--stack dev] [--expect-no-changes]
//
// The program runs in this process as an inline program: the Automation API serves Pulumi's language
// runtime itself and hands its address to the `pulumi` CLI, so no `pulumi-language-go` binary is needed.
// Everything else is ordinary Pulumi: the project is the current folder's Pulumi.yaml, the stack's
// configuration its Pulumi.<stack>.yaml (`pulumi config set ...`), the backend and secrets provider
// the ones `pulumi` uses here (PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, ...), and the `pulumi` CLI
// the one on PATH (PULUMI_ROOT=<folder with bin/pulumi> picks another).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"

	"github.com/pulumi-dns-account/pulumi-dns-account/examples/go-home-network/homenetwork"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	stackName := os.Getenv("PULUMI_STACK")
	if stackName == "" {
		stackName = "dev"
	}
	flags := flag.NewFlagSet("run", flag.ExitOnError)
	flags.StringVar(&stackName, "stack", stackName, "stack name")
	expectNoChanges := flags.Bool("expect-no-changes", false, "fail if the command would change anything")
	if len(os.Args) < 2 {
		return fmt.Errorf("usage: go run ./run up|preview|refresh|destroy [--stack NAME] [--expect-no-changes]")
	}
	command := os.Args[1]
	if err := flags.Parse(os.Args[2:]); err != nil {
		return err
	}

	ctx := context.Background()
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	cli, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: os.Getenv("PULUMI_ROOT")})
	if err != nil {
		return err
	}
	stack, err := auto.UpsertStackInlineSource(ctx, stackName, "go-home-network", homenetwork.Program, auto.WorkDir(wd), auto.Pulumi(cli))
	if err != nil {
		return err
	}

	switch command {
	case "up":
		opts := []optup.Option{optup.ProgressStreams(os.Stdout), optup.Diff()}
		if *expectNoChanges {
			opts = append(opts, optup.ExpectNoChanges())
		}
		result, err := stack.Up(ctx, opts...)
		if err != nil {
			return err
		}
		names := make([]string, 0, len(result.Outputs))
		for name := range result.Outputs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if out := result.Outputs[name]; out.Secret {
				fmt.Printf("output %s: [secret]\n", name)
			} else {
				value, err := json.Marshal(out.Value)
				if err != nil {
					return err
				}
				fmt.Printf("output %s: %s\n", name, value)
			}
		}
	case "preview":
		opts := []optpreview.Option{optpreview.ProgressStreams(os.Stdout), optpreview.Diff()}
		if *expectNoChanges {
			opts = append(opts, optpreview.ExpectNoChanges())
		}
		result, err := stack.Preview(ctx, opts...)
		if err != nil {
			return err
		}
		changes, err := json.Marshal(result.ChangeSummary)
		if err != nil {
			return err
		}
		fmt.Printf("changes: %s\n", changes)
	case "refresh":
		opts := []optrefresh.Option{optrefresh.ProgressStreams(os.Stdout)}
		if *expectNoChanges {
			opts = append(opts, optrefresh.ExpectNoChanges())
		}
		if _, err := stack.Refresh(ctx, opts...); err != nil {
			return err
		}
	case "destroy":
		if _, err := stack.Destroy(ctx, optdestroy.ProgressStreams(os.Stdout)); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown command %q: up, preview, refresh or destroy", command)
	}
	return nil
}
