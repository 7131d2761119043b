/**
 * The emulator's own OpenAPI description, served at `/static/swagger/openapi.json`. It describes only
 * what this emulator serves; operation ids follow the service's, so clients can call either by id.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const pathParam = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
const validationFailed = { description: "Validation failed", ...json(ref("ErrorResponse")) };
const unauthorized = { description: "Missing, invalid, expired or revoked bearer token", ...json(ref("AccessTokenErrorResponse")) };

function crud(tag: string, idParam: string, item: string, create: string, update: string, noun: string) {
  return {
    collection: {
      get: {
        operationId: `list${item}s`,
        tags: [tag],
        summary: `List ${noun}s`,
        responses: { "200": { description: `All ${noun}s`, ...json({ type: "array", items: ref(item) }) }, "401": unauthorized },
      },
      post: {
        operationId: `create${item}`,
        tags: [tag],
        summary: `Create a ${noun}`,
        requestBody: { required: true, ...json(ref(create)) },
        responses: {
          "200": { description: `The new ${noun}`, ...json(ref(item)) },
          "400": validationFailed,
          "401": unauthorized,
          "429": { description: `The account's ${noun} quota is used up` },
        },
      },
    },
    item: {
      parameters: [pathParam(idParam)],
      get: {
        operationId: `get${item}`,
        tags: [tag],
        summary: `Get one ${noun}`,
        responses: { "200": { description: `The ${noun}`, ...json(ref(item)) }, "401": unauthorized, "404": { description: "No such id" } },
      },
      put: {
        operationId: `update${item}`,
        tags: [tag],
        summary: `Change a ${noun}`,
        requestBody: { required: true, ...json(ref(update)) },
        responses: { "200": { description: "Changed" }, "400": validationFailed, "401": unauthorized, "404": { description: "No such id" } },
      },
      delete: {
        operationId: `remove${item}`,
        tags: [tag],
        summary: `Remove a ${noun}`,
        responses: { "200": { description: "Removed" }, "401": unauthorized, "404": { description: "No such id" } },
      },
    },
  };
}

const devices = crud("Devices", "device_id", "Device", "DeviceCreate", "DeviceUpdate", "device");
const servers = crud("DNS servers", "dns_server_id", "DNSServer", "DNSServerCreate", "DNSServerUpdate", "DNS server");

const str = { type: "string" };
const bool = { type: "boolean" };
const limit = ref("Limit");

/** Builds the document; `serverUrl` is the emulator's own address. */
export function openApiDocument(serverUrl: string): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Account API emulator", version: "1.0.0", description: "Local stand-in for the Account API of a DNS service." },
    servers: [{ url: serverUrl }],
    security: [{ AuthToken: [] }],
    paths: {
      "/oapi/v1/oauth_token": {
        post: {
          operationId: "accessToken",
          tags: ["Authentication"],
          summary: "Issue tokens by password (and MFA code) or by refresh token",
          security: [],
          requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: ref("AccessTokenCredentials") } } },
          responses: {
            "200": { description: "Tokens", ...json(ref("AccessTokenResponse")) },
            "400": { description: "Missing parameters or unsupported grant", ...json(ref("AccessTokenErrorResponse")) },
            "401": { description: "Credentials, MFA code or refresh token rejected", ...json(ref("AccessTokenErrorResponse")) },
          },
        },
      },
      "/oapi/v1/revoke_token": {
        post: {
          operationId: "revokeToken",
          tags: ["Authentication"],
          summary: "Revoke a refresh token (query refresh_token, or form field token or refresh_token)",
          security: [],
          parameters: [{ name: "refresh_token", in: "query", required: false, schema: str }],
          responses: { "200": { description: "Revoked, or already unknown" }, "400": { description: "No token given" } },
        },
      },
      "/oapi/v1/oauth_authorize": {
        get: {
          operationId: "authorize",
          tags: ["Authentication"],
          summary: "Implicit grant: redirects to redirect_uri with the token in the fragment",
          security: [],
          parameters: [
            { name: "response_type", in: "query", required: true, schema: { type: "string", enum: ["token"] } },
            { name: "client_id", in: "query", required: true, schema: str },
            { name: "redirect_uri", in: "query", required: true, schema: str },
            { name: "state", in: "query", required: false, schema: str },
            { name: "aid", in: "query", required: false, schema: str },
          ],
          responses: { "302": { description: "To the login page, or to redirect_uri#access_token=…" }, "400": { description: "Unknown client or redirect URI" } },
        },
      },
      "/oapi/v1/account/limits": {
        get: {
          operationId: "getAccountLimits",
          tags: ["Account"],
          summary: "Quotas of the account and their use",
          responses: { "200": { description: "Limits", ...json(ref("AccountLimits")) }, "401": unauthorized },
        },
      },
      "/oapi/v1/devices": devices.collection,
      "/oapi/v1/devices/{device_id}": devices.item,
      "/oapi/v1/dns_servers": servers.collection,
      "/oapi/v1/dns_servers/{dns_server_id}": servers.item,
    },
    components: {
      securitySchemes: { AuthToken: { type: "http", scheme: "bearer" } },
      schemas: {
        AccessTokenCredentials: {
          type: "object",
          properties: { grant_type: str, username: str, password: str, mfa_token: str, refresh_token: str },
        },
        AccessTokenResponse: {
          type: "object",
          required: ["access_token", "token_type", "expires_in"],
          properties: { access_token: str, token_type: str, refresh_token: str, expires_in: { type: "integer" } },
        },
        AccessTokenErrorResponse: {
          type: "object",
          properties: { error: str, error_code: str, error_description: str },
        },
        Limit: { type: "object", required: ["limit", "used"], properties: { limit: { type: "integer" }, used: { type: "integer" } } },
        AccountLimits: {
          type: "object",
          required: ["access_rules", "dedicated_ipv4", "devices", "dns_servers", "requests", "user_rules"],
          properties: { access_rules: limit, dedicated_ipv4: limit, devices: limit, dns_servers: limit, requests: limit, user_rules: limit },
        },
        Device: {
          type: "object",
          required: ["id", "name", "device_type", "dns_server_id", "dns_addresses", "settings"],
          properties: {
            id: str, name: str, device_type: str, dns_server_id: str,
            dns_addresses: { type: "object" },
            settings: { type: "object", properties: { protection_enabled: bool, detect_doh_auth_only: bool } },
          },
        },
        DeviceCreate: {
          type: "object",
          required: ["name", "device_type", "dns_server_id"],
          properties: { name: { type: "string", minLength: 1, maxLength: 64 }, device_type: str, dns_server_id: str },
        },
        DeviceUpdate: {
          type: "object",
          properties: { name: { type: "string", minLength: 1, maxLength: 64 }, device_type: str, dns_server_id: str },
        },
        DNSServer: {
          type: "object",
          required: ["id", "name", "default", "device_ids", "settings"],
          properties: { id: str, name: str, default: bool, device_ids: { type: "array", items: str }, settings: { type: "object" } },
        },
        DNSServerCreate: {
          type: "object",
          required: ["name"],
          properties: { name: { type: "string", minLength: 1, maxLength: 64 }, settings: { type: "object" } },
        },
        DNSServerUpdate: { type: "object", properties: { name: { type: "string", minLength: 1, maxLength: 64 } } },
        ErrorResponse: {
          type: "object",
          required: ["error_code", "fields"],
          properties: {
            error_code: str,
            message: str,
            fields: { type: "array", items: { type: "object", required: ["field", "error_code"], properties: { field: str, error_code: str, message: str } } },
          },
        },
      },
    },
  };
}
