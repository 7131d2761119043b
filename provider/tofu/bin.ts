#!/usr/bin/env node
/**
 * `terraform-provider-dnsaccount`: the OpenTofu/Terraform face as tofu starts it (./main).
 *
 * @example
 * ```sh
 * TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2 terraform-provider-dnsaccount
 * # 1|6|tcp|127.0.0.1:40123|grpc|MIIB...
 * ```
 */
import { start } from "./main";

start();
