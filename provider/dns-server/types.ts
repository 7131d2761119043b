/**
 * A DnsServer's arguments, inputs and state: generated from the package schema
 * (`provider/schema/schema.json`), which the plugin serves, so both faces agree.
 *
 * @example
 * ```ts
 * const args: DnsServerArgs = { name: "Home", settings: { userRules: { rules: ["||ads.example^"] } } };
 * ```
 */
export type {
  Access,
  BlockingMode,
  BlockingModeArgs,
  BlockingModeKind,
  DnsServerArgs,
  DnsServerInputs,
  DnsServerOutputs,
  DnsServerSettings,
  DnsServerSettingsArgs,
  FilterLists,
  ParentalControl,
  SafeBrowsing,
  Schedule,
  ScheduleArgs,
  TimeWindow,
  UserRules,
} from "../schema/types.generated";
