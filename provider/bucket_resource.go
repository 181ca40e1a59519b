package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/provider/internal/defaults"
	"github.com/dwk/fleet/provider/internal/validators"
)

// bucketResource is dwk_bucket: one S3 bucket.
type bucketResource struct {
	data *providerData
}

var (
	_ resource.Resource                = (*bucketResource)(nil)
	_ resource.ResourceWithConfigure   = (*bucketResource)(nil)
	_ resource.ResourceWithImportState = (*bucketResource)(nil)
)

// NewBucketResource returns dwk_bucket.
func NewBucketResource() resource.Resource { return &bucketResource{} }

// bucketModel is dwk_bucket's schema data.
type bucketModel struct {
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	ForceDestroy types.Bool   `tfsdk:"force_destroy"`
	S3           *s3Model     `tfsdk:"s3"`
}

func (r *bucketResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_bucket"
}

func (r *bucketResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An S3 bucket on any S3-compatible store, for a fleet's blobs (R2 bindings) and its mode marker. " +
			"Deleting a bucket that still holds objects fails unless `force_destroy` is set. " +
			"Import an existing bucket by name: `terraform import dwk_bucket.x NAME`, or " +
			"`NAME@ENDPOINT` (with `?region=R&path_style=true` as needed) for one on another store than the provider's (the keys come from the provider).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The bucket name.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Bucket name: 3-63 characters of `a-z`, `0-9`, `.` and `-`. Changing it replaces the bucket (objects are not moved).",
				Required:            true,
				Validators:          []validator.String{validators.BucketName()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"force_destroy": schema.BoolAttribute{
				MarkdownDescription: "On destroy, delete every object, object version and unfinished multipart upload first. Default: `false` (destroying a non-empty bucket fails).",
				Optional:            true, Computed: true, Default: booldefault.StaticBool(false),
			},
			"s3": schema.SingleNestedAttribute{
				MarkdownDescription: "Overrides the provider's S3 connection for this bucket; unset fields keep the provider's values.",
				Optional:            true,
				Attributes: map[string]schema.Attribute{
					"endpoint": schema.StringAttribute{
						MarkdownDescription: "Endpoint URL.",
						Optional:            true,
						Validators:          []validator.String{validators.URL("http", "https")},
					},
					"region":     schema.StringAttribute{MarkdownDescription: "Region.", Optional: true},
					"access_key": schema.StringAttribute{MarkdownDescription: "Access key id.", Optional: true},
					"secret_key": schema.StringAttribute{MarkdownDescription: "Secret access key.", Optional: true, Sensitive: true},
					"path_style": schema.BoolAttribute{MarkdownDescription: "Path-style addressing.", Optional: true},
				},
			},
		},
	}
}

func (r *bucketResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData)
}

func (r *bucketResource) conn(m *bucketModel) s3Conn {
	var c s3Conn
	if r.data != nil {
		c = r.data.s3
	}
	return c.with(m.S3)
}

// begin opens Create, Read and Delete: the model decoded from src (the
// plan or the state), its S3 connection and a client of it. ok is false
// when either failed; diags says why.
func (r *bucketResource) begin(ctx context.Context, src getter, diags *diag.Diagnostics) (m bucketModel, conn s3Conn, c *s3.Client, ok bool) {
	if m, ok = decode[bucketModel](ctx, src, diags); !ok {
		return m, conn, nil, false
	}
	conn = r.conn(&m)
	c, err := conn.client(ctx)
	if err != nil {
		diags.AddError("No S3 connection", err.Error())
		return m, conn, nil, false
	}
	return m, conn, c, true
}

func (r *bucketResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	m, conn, c, ok := r.begin(ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	name := m.Name.ValueString()
	in := &s3.CreateBucketInput{Bucket: aws.String(name)}
	if conn.Region != "" && conn.Region != defaults.S3Region {
		in.CreateBucketConfiguration = &s3types.CreateBucketConfiguration{LocationConstraint: s3types.BucketLocationConstraint(conn.Region)}
	}
	if _, err := c.CreateBucket(ctx, in); err != nil {
		var owned *s3types.BucketAlreadyOwnedByYou
		var taken *s3types.BucketAlreadyExists
		switch {
		case errors.As(err, &owned):
			resp.Diagnostics.AddError("Bucket "+name+" already exists",
				fmt.Sprintf("You own a bucket named %q already. Manage it with `terraform import dwk_bucket.<name> %s`, or choose another name.", name, name))
		case errors.As(err, &taken):
			resp.Diagnostics.AddError("Bucket name "+name+" is taken", "Another account owns a bucket with this name; bucket names are global on AWS. Choose another name.")
		default:
			resp.Diagnostics.AddError("Cannot create bucket "+name, s3Detail(err, conn))
		}
		return
	}
	m.ID = m.Name
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *bucketResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	m, conn, c, ok := r.begin(ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	name := m.Name.ValueString()
	if _, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(name)}); err != nil {
		if isNotFound(err) {
			resp.Diagnostics.AddWarning("Bucket "+name+" is gone", "The bucket no longer exists; it is removed from the state and will be created again on the next apply.")
			resp.State.RemoveResource(ctx)
			return
		}
		resp.Diagnostics.AddError("Cannot read bucket "+name, s3Detail(err, conn))
		return
	}
	m.ID = m.Name
	if m.ForceDestroy.IsNull() {
		m.ForceDestroy = types.BoolValue(false) // after import
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Update only changes force_destroy and the connection, which live in the
// state alone.
func (r *bucketResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	m, ok := decode[bucketModel](ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	m.ID = m.Name
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *bucketResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m, conn, c, ok := r.begin(ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	name := m.Name.ValueString()
	if boolValue(m.ForceDestroy) {
		if err := emptyBucket(ctx, c, name); err != nil {
			if isNotFound(err) {
				return
			}
			resp.Diagnostics.AddError("Cannot empty bucket "+name, s3Detail(err, conn))
			return
		}
	}
	if _, err := c.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: aws.String(name)}); err != nil {
		var ae smithy.APIError
		switch {
		case isNotFound(err):
		case errors.As(err, &ae) && ae.ErrorCode() == "BucketNotEmpty":
			resp.Diagnostics.AddError("Bucket "+name+" is not empty",
				"The bucket still holds objects. Set force_destroy = true (and apply) to delete them with the bucket, or empty it yourself.")
		default:
			resp.Diagnostics.AddError("Cannot delete bucket "+name, s3Detail(err, conn))
		}
	}
}

// ImportState takes NAME, or NAME@ENDPOINT[?region=R&path_style=true] for
// a bucket on another store than the provider's (the keys then come from
// the provider's s3 or its environment).
func (r *bucketResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, err := parseImportID(req.ID, "region", "path_style")
	if err != nil {
		resp.Diagnostics.AddError("Invalid import id", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), id.Name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id.Name)...)
	if id.URL != "" {
		m := &s3Model{Endpoint: types.StringValue(id.URL), Region: types.StringNull(), AccessKey: types.StringNull(),
			SecretKey: types.StringNull(), PathStyle: types.BoolNull()}
		if id.Region != "" {
			m.Region = types.StringValue(id.Region)
		}
		if id.PathStyle != nil {
			m.PathStyle = types.BoolValue(*id.PathStyle)
		}
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("s3"), m)...)
	}
}

// isNotFound reports a missing bucket.
func isNotFound(err error) bool {
	var nb *s3types.NoSuchBucket
	var nf *s3types.NotFound
	if errors.As(err, &nb) || errors.As(err, &nf) {
		return true
	}
	var ae smithy.APIError
	return errors.As(err, &ae) && (ae.ErrorCode() == "NoSuchBucket" || ae.ErrorCode() == "NotFound")
}

// s3Detail explains an S3 error with the endpoint it came from.
func s3Detail(err error, c s3Conn) string {
	ep := c.Endpoint
	if ep == "" {
		ep = "AWS S3 (" + c.Region + ")"
	}
	return fmt.Sprintf("%v\n\nS3 endpoint: %s", err, ep)
}
