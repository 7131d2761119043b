"""Runs this folder's program (__main__.py) under the Pulumi CLI through the Automation API.

    python run.py up|preview|refresh|destroy [--stack dev] [--expect-no-changes]

The program runs in this process as an inline program: the Automation API starts Pulumi's language
runtime service itself and hands its address to the `pulumi` CLI, so no `pulumi-language-python`
binary is needed. Everything else is ordinary Pulumi: the project is this folder's Pulumi.yaml, the
stack's configuration is its Pulumi.<stack>.yaml (`pulumi config set ...`), the backend and secrets
provider are the ones `pulumi` uses here (PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, ...), and the
`pulumi` CLI is the one on PATH (PULUMI_ROOT=<folder with bin/pulumi> picks another).
"""

import argparse
import importlib.util
import json
import os
import sys
from pathlib import Path

from pulumi import automation as auto

HERE = Path(__file__).resolve().parent


def load_program():
    """The `home_network` function of __main__.py (loaded under another name: this script is __main__)."""
    spec = importlib.util.spec_from_file_location("home_network_program", HERE / "__main__.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.home_network


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["up", "preview", "refresh", "destroy"])
    parser.add_argument("--stack", default=os.environ.get("PULUMI_STACK", "dev"), help="stack name (default dev)")
    parser.add_argument("--expect-no-changes", action="store_true", help="fail if the command would change anything")
    args = parser.parse_args()

    root = os.environ.get("PULUMI_ROOT")
    stack = auto.create_or_select_stack(
        stack_name=args.stack,
        project_name="python-home-network",
        program=load_program(),
        opts=auto.LocalWorkspaceOptions(
            work_dir=str(HERE),
            pulumi_command=auto.PulumiCommand(root=root) if root else None,
        ),
    )
    show = {"on_output": print, "color": "never"}
    expect = {"expect_no_changes": True} if args.expect_no_changes else {}
    if args.command == "up":
        result = stack.up(diff=True, **expect, **show)
        for name, value in sorted(result.outputs.items()):
            print(f"output {name}: {'[secret]' if value.secret else json.dumps(value.value, sort_keys=True)}")
    elif args.command == "preview":
        result = stack.preview(diff=True, **expect, **show)
        changes = {str(getattr(op, "value", op)): n for op, n in result.change_summary.items()}
        print(f"changes: {json.dumps(changes, sort_keys=True, separators=(',', ':'))}")
    elif args.command == "refresh":
        stack.refresh(**expect, **show)
    else:
        stack.destroy(**show)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except auto.errors.CommandError as err:
        # The CLI's own output has been printed already; its error names what failed.
        print(f"{sys.argv[1] if len(sys.argv) > 1 else 'pulumi'} failed: {err}", file=sys.stderr)
        sys.exit(1)
