/**
 * What each SDK calls every enum value of the schema (provider/schema/schema.json): the value's `name`
 * as each of Pulumi's code generators spells it. Used by schema-enums.test.ts (the SDKs' sources) and
 * sdks.test.ts (the programs `pulumi import --generate-code` writes). Python: the value in capitals,
 * words split by `_`; Go: the type's name, then the member's, with no underscore; TypeScript, C# and
 * Java: the name itself.
 *
 * @example
 * MEMBERS.DeviceType.SMART_TV.python; // "SMART_TV" (dns_account.DeviceType.SMART_TV)
 */
export const MEMBERS: Record<string, Record<string, { python: string; go: string; other: string }>> = {
  BlockingModeKind: {
    NONE: { python: "NONE", go: "BlockingModeKindNone", other: "None" },
    NULL_IP: { python: "NULL_IP", go: "BlockingModeKindNullIP", other: "NullIP" },
    REFUSED: { python: "REFUSED", go: "BlockingModeKindRefused", other: "Refused" },
    NXDOMAIN: { python: "NXDOMAIN", go: "BlockingModeKindNxdomain", other: "Nxdomain" },
    CUSTOM_IP: { python: "CUSTOM_IP", go: "BlockingModeKindCustomIP", other: "CustomIP" },
  },
  DeviceType: {
    WINDOWS: { python: "WINDOWS", go: "DeviceTypeWindows", other: "Windows" },
    ANDROID: { python: "ANDROID", go: "DeviceTypeAndroid", other: "Android" },
    MAC: { python: "MAC", go: "DeviceTypeMac", other: "Mac" },
    IOS: { python: "IOS", go: "DeviceTypeIOS", other: "IOS" },
    LINUX: { python: "LINUX", go: "DeviceTypeLinux", other: "Linux" },
    ROUTER: { python: "ROUTER", go: "DeviceTypeRouter", other: "Router" },
    SMART_TV: { python: "SMART_TV", go: "DeviceTypeSmartTV", other: "SmartTV" },
    GAME_CONSOLE: { python: "GAME_CONSOLE", go: "DeviceTypeGameConsole", other: "GameConsole" },
    UNKNOWN: { python: "UNKNOWN", go: "DeviceTypeUnknown", other: "Unknown" },
  },
  TokenMode: {
    password: { python: "PASSWORD", go: "TokenModePassword", other: "Password" },
    refreshToken: { python: "REFRESH_TOKEN", go: "TokenModeRefreshToken", other: "RefreshToken" },
  },
  TokenType: {
    bearer: { python: "BEARER", go: "TokenTypeBearer", other: "Bearer" },
  },
};
