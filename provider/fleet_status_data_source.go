package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/provider/internal/defaults"
	"github.com/dwk/fleet/provider/internal/deploy"
	"github.com/dwk/fleet/provider/internal/sshtarget"
	"github.com/dwk/fleet/provider/internal/validators"
)

// fleetStatusDataSource is dwk_fleet_status: the members of a fleet as
// their admin APIs report them.
type fleetStatusDataSource struct {
	data *providerData
}

var (
	_ datasource.DataSource              = (*fleetStatusDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*fleetStatusDataSource)(nil)
)

func (d *fleetStatusDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData)
}

// NewFleetStatusDataSource returns dwk_fleet_status.
func NewFleetStatusDataSource() datasource.DataSource { return &fleetStatusDataSource{} }

// defaultAdmin is the admin listen address dwk_fleet gives a host that
// sets none.
var defaultAdmin = "127.0.0.1:" + itoa(defaults.AdminPort)

type fleetStatusModel struct {
	AdminURLs  []string            `tfsdk:"admin_urls"`
	Hosts      []statusHostModel   `tfsdk:"hosts"`
	AdminToken types.String        `tfsdk:"admin_token"`
	Members    []statusMemberModel `tfsdk:"members"`
	Ready      types.Int64         `tfsdk:"ready"`
}

type statusHostModel struct {
	Address    types.String `tfsdk:"address"`
	Port       types.Int64  `tfsdk:"port"`
	User       types.String `tfsdk:"user"`
	PrivateKey types.String `tfsdk:"private_key"`
	HostKey    types.String `tfsdk:"host_key"`
	Admin      types.String `tfsdk:"admin"`
	InstallDir types.String `tfsdk:"install_dir"`
}

type statusMemberModel struct {
	Endpoint   types.String `tfsdk:"endpoint"`
	Member     types.String `tfsdk:"member"`
	Fleet      types.String `tfsdk:"fleet"`
	Mode       types.String `tfsdk:"mode"`
	State      types.String `tfsdk:"state"`
	Version    types.String `tfsdk:"version"`
	ConfigHash types.String `tfsdk:"config_hash"`
	Public     types.String `tfsdk:"public"`
	Started    types.String `tfsdk:"started"`
	Error      types.String `tfsdk:"error"`
}

func (d *fleetStatusDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet_status"
}

func (d *fleetStatusDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The members of a dwk fleet as their admin APIs report them (`GET /admin/status`), like `dwk status`. " +
			"Give the admin URLs directly (`admin_urls`) or hosts to reach over SSH (`hosts`, the admin listener is then dialled from the " +
			"host itself). A replica that does not answer is listed with `state = \"unreachable\"` and the reason in `error`; the data " +
			"source itself only fails on bad arguments.",
		Attributes: map[string]schema.Attribute{
			"admin_urls": schema.ListAttribute{
				MarkdownDescription: "Admin API base URLs, e.g. `[\"http://10.0.0.5:8789\"]`.",
				Optional:            true, ElementType: types.StringType,
			},
			"hosts": schema.ListNestedAttribute{
				MarkdownDescription: "Hosts to reach over SSH; each replica's admin listener is dialled through an SSH `direct-tcpip` channel.",
				Optional:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"address":     schema.StringAttribute{MarkdownDescription: "SSH host name or IP.", Required: true, Validators: []validator.String{validators.HostAddress()}},
					"port":        schema.Int64Attribute{MarkdownDescription: "SSH port. Default: `" + itoa(defaults.SSHPort) + "`.", Optional: true, Validators: []validator.Int64{int64validator.Between(1, 65535)}},
					"user":        schema.StringAttribute{MarkdownDescription: "SSH user. Default: `\"" + defaults.SSHUser + "\"`.", Optional: true},
					"private_key": schema.StringAttribute{MarkdownDescription: "SSH private key (PEM). A data source's arguments are stored in the state: leave this unset and give the provider's `ssh` credentials (or an ssh-agent) instead. Default: the provider's.", Optional: true, Sensitive: true, Validators: []validator.String{validators.SSHPrivateKey()}},
					"host_key":    schema.StringAttribute{MarkdownDescription: "The host's public key, authorized_keys format.", Required: true, Validators: []validator.String{validators.SSHPublicKey()}},
					"admin":       schema.StringAttribute{MarkdownDescription: "Admin listen address on the host. Default: `\"" + defaultAdmin + "\"`.", Optional: true, Validators: []validator.String{validators.ListenAddress()}},
					"install_dir": schema.StringAttribute{MarkdownDescription: "The replica's install directory (`dwk_fleet`'s `hosts[].install_dir`): without `admin_token`, the token is read back from its `dwk.json`.", Optional: true, Validators: []validator.String{validators.AbsPath()}},
				}},
			},
			"admin_token": schema.StringAttribute{
				MarkdownDescription: "Admin token. Stored in the state like every data source argument, so leave it unset for hosts with " +
					"`install_dir`: the token is then read back from the host's `dwk.json` (`dwk_fleet` keeps it nowhere else). Required for `admin_urls`.",
				Optional: true, Sensitive: true,
			},
			"members": schema.ListNestedAttribute{
				MarkdownDescription: "One element per admin URL, then per host, in order.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"endpoint":    str("The admin URL or SSH host asked."),
					"member":      str("Member name."),
					"fleet":       str("Fleet name."),
					"mode":        str("`local` or `central`."),
					"state":       str("`starting`, `ready`, `draining`, `gone`, or `unreachable` when it did not answer."),
					"version":     str("dwk version."),
					"config_hash": str("Hash of the config it runs."),
					"public":      str("Public listen address."),
					"started":     str("Start time, RFC 3339."),
					"error":       str("Why the member could not be asked; empty when it answered."),
				}},
			},
			"ready": schema.Int64Attribute{MarkdownDescription: "How many members are `ready`.", Computed: true},
		},
	}
}

func (d *fleetStatusDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m fleetStatusModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if len(m.AdminURLs) == 0 && len(m.Hosts) == 0 {
		resp.Diagnostics.AddError("Nothing to ask", "Give admin_urls, hosts, or both.")
		return
	}
	if len(m.AdminURLs) > 0 && m.AdminToken.ValueString() == "" {
		resp.Diagnostics.AddError("Missing admin_token", "admin_urls are asked directly, which needs admin_token; hosts with install_dir read it back.")
		return
	}
	var ssh sshDefaults
	if d.data != nil {
		ssh = d.data.ssh
	}
	type probe struct {
		endpoint string
		host     *deploy.Host
		closer   func() error
	}
	var probes []probe
	for _, u := range m.AdminURLs {
		addr := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://"), "/")
		if strings.HasPrefix(u, "https://") {
			resp.Diagnostics.AddError("Unsupported admin URL", u+": the admin listener speaks plain HTTP; reach it over SSH (hosts) when it is not local.")
			return
		}
		probes = append(probes, probe{endpoint: u, host: &deploy.Host{Name: u, Target: deploy.Local{}, AdminAddr: addr, AdminToken: m.AdminToken.ValueString()}})
	}
	for _, h := range m.Hosts {
		cfg := sshHostModel{Address: h.Address, Port: h.Port, User: h.User, PrivateKey: h.PrivateKey, HostKey: h.HostKey}.config(ssh)
		t := sshtarget.NewLazy(cfg)
		admin := deploy.DialAddr(orDefault(h.Admin, defaultAdmin))
		probes = append(probes, probe{endpoint: cfg.Name(), closer: t.Close,
			host: &deploy.Host{Name: cfg.Name(), Target: t, AdminAddr: admin, AdminToken: m.AdminToken.ValueString(), InstallDir: h.InstallDir.ValueString()}})
	}
	members := make([]statusMemberModel, len(probes))
	dep := deploy.New()
	var wg sync.WaitGroup
	for i, p := range probes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p.closer != nil {
				defer p.closer()
			}
			cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			if p.host.AdminToken == "" && p.host.InstallDir != "" {
				hc := *p.host
				hc.AdminToken = adminTokenOf(dep.Observe(cctx, p.host))
				p.host = &hc
			}
			r, err := dep.Status(cctx, p.host)
			mm := statusMemberModel{Endpoint: types.StringValue(p.endpoint), Error: types.StringValue("")}
			if err != nil {
				r = deploy.Report{State: "unreachable"}
				mm.Error = types.StringValue(fmt.Sprintf("%s: %v", p.endpoint, err))
			}
			mm.Member, mm.Fleet, mm.Mode = types.StringValue(r.Member), types.StringValue(r.Fleet), types.StringValue(r.Mode)
			mm.State, mm.Version, mm.ConfigHash = types.StringValue(r.State), types.StringValue(r.Version), types.StringValue(r.ConfigHash)
			mm.Public, mm.Started = types.StringValue(r.Public), types.StringValue("")
			if !r.Started.IsZero() {
				mm.Started = types.StringValue(r.Started.UTC().Format(time.RFC3339))
			}
			members[i] = mm
		}()
	}
	wg.Wait()
	ready := 0
	for _, mm := range members {
		if mm.State.ValueString() == "ready" {
			ready++
		}
	}
	m.Members, m.Ready = members, types.Int64Value(int64(ready))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
