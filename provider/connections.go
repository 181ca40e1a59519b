package provider

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/provider/internal/defaults"
	"github.com/dwk/fleet/provider/internal/nsadmin"
)

// Environment variables the provider reads for settings its configuration
// leaves out.
const (
	EnvLibSQLURL        = "DWK_LIBSQL_URL"
	EnvLibSQLAdminURL   = "DWK_LIBSQL_ADMIN_URL"
	EnvLibSQLAuthToken  = "DWK_LIBSQL_AUTH_TOKEN"
	EnvLibSQLAdminToken = "DWK_LIBSQL_ADMIN_TOKEN"
	EnvLibSQLCAFile     = "DWK_LIBSQL_CA_FILE"
	EnvS3Endpoint       = "DWK_S3_ENDPOINT"
	EnvS3Region         = "DWK_S3_REGION"
	EnvS3AccessKey      = "DWK_S3_ACCESS_KEY"
	EnvS3SecretKey      = "DWK_S3_SECRET_KEY"
	EnvS3PathStyle      = "DWK_S3_PATH_STYLE"
)

// libsqlConn is a resolved libSQL connection.
type libsqlConn struct {
	URL, AdminURL, AuthToken, AdminToken string
	// CAFile is the PEM file (on the machine Terraform runs on) of the CA
	// an https:// or wss:// server is checked against; "" for the
	// system's roots.
	CAFile string
}

// s3Conn is a resolved S3 connection.
type s3Conn struct {
	Endpoint, Region, AccessKey, SecretKey string
	PathStyle                              bool
}

// libsqlModel is the provider's libsql attribute.
type libsqlModel struct {
	URL        types.String `tfsdk:"url"`
	AdminURL   types.String `tfsdk:"admin_url"`
	AuthToken  types.String `tfsdk:"auth_token"`
	AdminToken types.String `tfsdk:"admin_token"`
	CAFile     types.String `tfsdk:"ca_file"`
}

// s3Model is the provider's s3 attribute and dwk_bucket's override.
type s3Model struct {
	Endpoint  types.String `tfsdk:"endpoint"`
	Region    types.String `tfsdk:"region"`
	AccessKey types.String `tfsdk:"access_key"`
	SecretKey types.String `tfsdk:"secret_key"`
	PathStyle types.Bool   `tfsdk:"path_style"`
}

// pick returns v's value when it is set and known, else fallback.
func pick(v types.String, fallback string) string {
	if v.IsNull() || v.IsUnknown() || v.ValueString() == "" {
		return fallback
	}
	return v.ValueString()
}

// libsqlFromEnv is the libSQL connection the environment gives.
func libsqlFromEnv() libsqlConn {
	return libsqlConn{
		URL: os.Getenv(EnvLibSQLURL), AdminURL: os.Getenv(EnvLibSQLAdminURL),
		AuthToken: os.Getenv(EnvLibSQLAuthToken), AdminToken: os.Getenv(EnvLibSQLAdminToken),
		CAFile: os.Getenv(EnvLibSQLCAFile),
	}
}

// s3FromEnv is the S3 connection the environment gives.
func s3FromEnv() s3Conn {
	c := s3Conn{
		Endpoint: os.Getenv(EnvS3Endpoint), Region: os.Getenv(EnvS3Region),
		AccessKey: os.Getenv(EnvS3AccessKey), SecretKey: os.Getenv(EnvS3SecretKey),
	}
	c.PathStyle, _ = strconv.ParseBool(os.Getenv(EnvS3PathStyle))
	return c
}

// with overrides c with the set fields of m.
func (c libsqlConn) with(m *libsqlModel) libsqlConn {
	if m == nil {
		return c
	}
	return libsqlConn{
		URL: pick(m.URL, c.URL), AdminURL: pick(m.AdminURL, c.AdminURL),
		AuthToken: pick(m.AuthToken, c.AuthToken), AdminToken: pick(m.AdminToken, c.AdminToken),
		CAFile: pick(m.CAFile, c.CAFile),
	}
}

// with overrides c with the set fields of m.
func (c s3Conn) with(m *s3Model) s3Conn {
	if m == nil {
		return c
	}
	out := s3Conn{
		Endpoint: pick(m.Endpoint, c.Endpoint), Region: pick(m.Region, c.Region),
		AccessKey: pick(m.AccessKey, c.AccessKey), SecretKey: pick(m.SecretKey, c.SecretKey),
		PathStyle: c.PathStyle,
	}
	if !m.PathStyle.IsNull() && !m.PathStyle.IsUnknown() {
		out.PathStyle = m.PathStyle.ValueBool()
	}
	return out
}

// adminClient returns a client of the libSQL admin API.
func (c libsqlConn) adminClient() (*nsadmin.Client, error) {
	if c.AdminURL == "" {
		return nil, fmt.Errorf("no libSQL admin API URL: set libsql.admin_url on the resource or the provider, or %s", EnvLibSQLAdminURL)
	}
	return nsadmin.New(c.AdminURL, c.AdminToken, c.CAFile)
}

// client returns an S3 client. Without access keys it uses the AWS SDK's
// default credential chain (AWS_* variables, shared files, instance roles).
func (c s3Conn) client(ctx context.Context) (*s3.Client, error) {
	region := c.Region
	if region == "" {
		region = defaults.S3Region
	}
	opts := []func(*awsconfig.LoadOptions) error{awsconfig.WithRegion(region)}
	if c.AccessKey != "" || c.SecretKey != "" {
		if c.AccessKey == "" || c.SecretKey == "" {
			return nil, fmt.Errorf("S3: give both access_key and secret_key (or neither, to use the AWS default credentials)")
		}
		opts = append(opts, awsconfig.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(c.AccessKey, c.SecretKey, "")))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("S3: load AWS configuration: %w", err)
	}
	return s3.NewFromConfig(cfg, func(o *s3.Options) {
		if c.Endpoint != "" {
			o.BaseEndpoint = aws.String(c.Endpoint)
		}
		o.UsePathStyle = c.PathStyle
		// Checksums only where S3 requires them: every S3-compatible
		// server understands those.
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	}), nil
}
