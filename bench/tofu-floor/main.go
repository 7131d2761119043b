// The tofu floor of `npm run bench -- tofu`: a trivial OpenTofu provider on terraform-plugin-go (the
// protocol alone, no framework), under our provider's source address and type names, whose resource
// `dnsaccount_device` has only the attributes the bench's configuration sets (plus a computed `id`) and
// whose Read, Create and Delete make exactly the raw floor's requests: one password login per process
// that makes a request (lazily, on its first), then one GET, POST or DELETE per device, over one
// keep-alive pool of 16 connections. No revocation, no retries, no checks beyond the status code.
//
// The provider block takes `username`; the base URL and the password come from DNS_ACCOUNT_BASE_URL and
// DNS_ACCOUNT_PASSWORD, as our provider reads them in the bench's configuration.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

const source = "registry.opentofu.org/pulumi-dns-account/dnsaccount"

var deviceType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"id": tftypes.String, "name": tftypes.String, "device_type": tftypes.String, "dns_server_id": tftypes.String,
}}

var providerType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"username": tftypes.String}}

func attr(name string, required bool) *tfprotov6.SchemaAttribute {
	return &tfprotov6.SchemaAttribute{Name: name, Type: tftypes.String, Required: required, Optional: !required}
}

var schema = &tfprotov6.GetProviderSchemaResponse{
	Provider: &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{attr("username", false)}}},
	ResourceSchemas: map[string]*tfprotov6.Schema{"dnsaccount_device": {Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
		{Name: "id", Type: tftypes.String, Computed: true},
		attr("name", true), attr("device_type", true), attr("dns_server_id", true),
	}}}},
	DataSourceSchemas:        map[string]*tfprotov6.Schema{},
	Functions:                map[string]*tfprotov6.Function{},
	EphemeralResourceSchemas: map[string]*tfprotov6.Schema{},
}

// account is what one process needs to reach the service: its login is made once, on the first request.
type account struct {
	base, username, password string
	http                     *http.Client
	once                     sync.Once
	token                    string
	err                      error
}

func (a *account) login() (string, error) {
	a.once.Do(func() {
		form := url.Values{"grant_type": {"password"}, "username": {a.username}, "password": {a.password}}.Encode()
		res, err := a.http.Post(a.base+"/oapi/v1/oauth_token", "application/x-www-form-urlencoded", strings.NewReader(form))
		if err != nil {
			a.err = err
			return
		}
		defer res.Body.Close()
		var body struct {
			AccessToken string `json:"access_token"`
		}
		if err := json.NewDecoder(res.Body).Decode(&body); err != nil || res.StatusCode != 200 {
			a.err = fmt.Errorf("login: HTTP %d %v", res.StatusCode, err)
			return
		}
		a.token = body.AccessToken
	})
	return a.token, a.err
}

// call makes one request and decodes a JSON answer into out (when out is not nil); 404 is returned as found=false.
func (a *account) call(method, path string, in, out any) (found bool, err error) {
	token, err := a.login()
	if err != nil {
		return false, err
	}
	var body io.Reader
	if in != nil {
		b, _ := json.Marshal(in)
		body = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, a.base+"/oapi/v1"+path, body)
	req.Header.Set("authorization", "Bearer "+token)
	req.Header.Set("accept", "application/json")
	if in != nil {
		req.Header.Set("content-type", "application/json")
	}
	res, err := a.http.Do(req)
	if err != nil {
		return false, err
	}
	defer res.Body.Close()
	if res.StatusCode == 404 && method == http.MethodGet {
		_, _ = io.Copy(io.Discard, res.Body)
		return false, nil
	}
	if res.StatusCode >= 300 {
		text, _ := io.ReadAll(res.Body)
		return false, fmt.Errorf("%s %s: HTTP %d %s", method, path, res.StatusCode, text)
	}
	if out != nil {
		return true, json.NewDecoder(res.Body).Decode(out)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	return true, nil
}

type device struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	DeviceType  string `json:"device_type"`
	DnsServerID string `json:"dns_server_id"`
}

func (d device) value() tftypes.Value {
	return tftypes.NewValue(deviceType, map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.String, d.ID), "name": tftypes.NewValue(tftypes.String, d.Name),
		"device_type": tftypes.NewValue(tftypes.String, d.DeviceType), "dns_server_id": tftypes.NewValue(tftypes.String, d.DnsServerID),
	})
}

func deviceOf(v tftypes.Value) (device, error) {
	var m map[string]tftypes.Value
	if err := v.As(&m); err != nil {
		return device{}, err
	}
	var d device
	for k, p := range map[string]*string{"id": &d.ID, "name": &d.Name, "device_type": &d.DeviceType, "dns_server_id": &d.DnsServerID} {
		if m[k].IsKnown() && !m[k].IsNull() {
			if err := m[k].As(p); err != nil {
				return device{}, err
			}
		}
	}
	return d, nil
}

func dynamic(v tftypes.Value) *tfprotov6.DynamicValue {
	dv, err := tfprotov6.NewDynamicValue(deviceType, v)
	if err != nil {
		panic(err)
	}
	return &dv
}

func fail(err error) []*tfprotov6.Diagnostic {
	return []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: err.Error()}}
}

type provider struct {
	tfprotov6.ProviderServer // the calls tofu does not make here: nil, they would panic
	acct                     *account
}

func (p *provider) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return &tfprotov6.GetMetadataResponse{Resources: []tfprotov6.ResourceMetadata{{TypeName: "dnsaccount_device"}}}, nil
}

func (p *provider) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return schema, nil
}

func (p *provider) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{}, nil
}

func (p *provider) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{}, nil
}

func (p *provider) ValidateProviderConfig(_ context.Context, r *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{}, nil
}

func (p *provider) ConfigureProvider(_ context.Context, r *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	v, err := r.Config.Unmarshal(providerType)
	if err != nil {
		return &tfprotov6.ConfigureProviderResponse{Diagnostics: fail(err)}, nil
	}
	var m map[string]tftypes.Value
	var username string
	if err := v.As(&m); err == nil && m["username"].IsKnown() && !m["username"].IsNull() {
		_ = m["username"].As(&username)
	}
	transport := &http.Transport{MaxConnsPerHost: 16, MaxIdleConnsPerHost: 16, IdleConnTimeout: 30 * time.Second}
	p.acct = &account{base: os.Getenv("DNS_ACCOUNT_BASE_URL"), username: username, password: os.Getenv("DNS_ACCOUNT_PASSWORD"), http: &http.Client{Transport: transport}}
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

func (p *provider) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

func (p *provider) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

func (p *provider) UpgradeResourceState(_ context.Context, r *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	v, err := r.RawState.UnmarshalWithOpts(deviceType, tfprotov6.UnmarshalOpts{ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	if err != nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: fail(err)}, nil
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: dynamic(v)}, nil
}

// ReadResource: one GET of the device; gone (404) is a null state.
func (p *provider) ReadResource(_ context.Context, r *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	v, err := r.CurrentState.Unmarshal(deviceType)
	if err != nil {
		return &tfprotov6.ReadResourceResponse{Diagnostics: fail(err)}, nil
	}
	d, err := deviceOf(v)
	if err != nil {
		return &tfprotov6.ReadResourceResponse{Diagnostics: fail(err)}, nil
	}
	var live device
	found, err := p.acct.call(http.MethodGet, "/devices/"+d.ID, nil, &live)
	if err != nil {
		return &tfprotov6.ReadResourceResponse{Diagnostics: fail(err)}, nil
	}
	if !found {
		return &tfprotov6.ReadResourceResponse{NewState: dynamic(tftypes.NewValue(deviceType, nil))}, nil
	}
	return &tfprotov6.ReadResourceResponse{NewState: dynamic(live.value()), Private: r.Private}, nil
}

// PlanResourceChange: the proposed state, with the id unknown for a create.
func (p *provider) PlanResourceChange(_ context.Context, r *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	proposed, err := r.ProposedNewState.Unmarshal(deviceType)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: fail(err)}, nil
	}
	prior, err := r.PriorState.Unmarshal(deviceType)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: fail(err)}, nil
	}
	if proposed.IsNull() || !prior.IsNull() {
		return &tfprotov6.PlanResourceChangeResponse{PlannedState: r.ProposedNewState, PlannedPrivate: r.PriorPrivate}, nil
	}
	var m map[string]tftypes.Value
	if err := proposed.As(&m); err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: fail(err)}, nil
	}
	m["id"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: dynamic(tftypes.NewValue(deviceType, m))}, nil
}

// ApplyResourceChange: one POST for a create, one DELETE for a destroy.
func (p *provider) ApplyResourceChange(_ context.Context, r *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	planned, err := r.PlannedState.Unmarshal(deviceType)
	if err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: fail(err)}, nil
	}
	prior, err := r.PriorState.Unmarshal(deviceType)
	if err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: fail(err)}, nil
	}
	switch {
	case planned.IsNull():
		d, err := deviceOf(prior)
		if err == nil {
			_, err = p.acct.call(http.MethodDelete, "/devices/"+d.ID, nil, nil)
		}
		if err != nil {
			return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: fail(err)}, nil
		}
		return &tfprotov6.ApplyResourceChangeResponse{NewState: r.PlannedState}, nil
	case prior.IsNull():
		d, err := deviceOf(planned)
		var made device
		if err == nil {
			_, err = p.acct.call(http.MethodPost, "/devices", map[string]string{"name": d.Name, "device_type": d.DeviceType, "dns_server_id": d.DnsServerID}, &made)
		}
		if err != nil {
			return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: fail(err)}, nil
		}
		return &tfprotov6.ApplyResourceChangeResponse{NewState: dynamic(made.value())}, nil
	default:
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: fail(fmt.Errorf("the tofu floor does not update devices"))}, nil
	}
}

func main() {
	if err := tf6server.Serve(source, func() tfprotov6.ProviderServer { return &provider{} }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
