package provider

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/dwk/fleet/test/s3server"
)

func TestAccBucket(t *testing.T) {
	testAccPreCheck(t)
	srv := s3server.Start(t)
	if srv.External() && !strings.HasPrefix(srv.Endpoint, "http://127.") {
		t.Log("running against the external S3 service", srv.Endpoint)
	}
	c := srv.Client()
	ctx := context.Background()
	b := make([]byte, 6)
	rand.Read(b)
	name := "dwk-tfacc-" + hex.EncodeToString(b)
	// The provider gets the keys from the environment and an endpoint
	// where nothing listens; the bucket overrides the endpoint and
	// path_style, so every operation (import too) must use its own.
	t.Setenv(EnvS3Endpoint, "http://127.0.0.1:9")
	t.Setenv(EnvS3AccessKey, srv.AccessKey)
	t.Setenv(EnvS3SecretKey, srv.SecretKey)
	t.Setenv(EnvS3Region, srv.Region)
	bucket := func(force bool) string {
		return fmt.Sprintf(`resource "dwk_bucket" "b" {
  name          = %q
  force_destroy = %v
  s3            = { endpoint = %q, path_style = %v }
}
`, name, force, srv.Endpoint, srv.PathStyle)
	}
	exists := func(want bool) error {
		_, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(name)})
		if got := err == nil; got != want {
			return fmt.Errorf("bucket %s exists = %v, want %v (%v)", name, got, want, err)
		}
		return nil
	}
	fill := func() {
		for _, k := range []string{"a", "dir/b", "dir/c"} {
			if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(name), Key: aws.String(k), Body: strings.NewReader("x")}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := c.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: aws.String(name), Key: aws.String("big")}); err != nil {
			t.Fatal(err)
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy:             func(*terraform.State) error { return exists(false) },
		Steps: []resource.TestStep{
			{
				Config: bucket(false),
				Check: resource.ComposeTestCheckFunc(
					func(*terraform.State) error { return exists(true) },
					resource.TestCheckResourceAttr("dwk_bucket.b", "id", name),
					resource.TestCheckResourceAttr("dwk_bucket.b", "force_destroy", "false"),
				),
			},
			{
				// Imported by name alone, it is looked for at the provider's endpoint.
				ResourceName: "dwk_bucket.b", ImportState: true, ImportStateId: name,
				ExpectError: regexp.MustCompile("Cannot read bucket"),
			},
			{
				ResourceName: "dwk_bucket.b", ImportState: true, ImportStateVerify: true,
				ImportStateId: fmt.Sprintf("%s@%s?path_style=%v", name, srv.Endpoint, srv.PathStyle),
			},
			{
				// A bucket holding objects is not destroyed without force_destroy.
				PreConfig:   fill,
				Config:      bucket(false),
				Destroy:     true,
				ExpectError: regexp.MustCompile(`(?s)Bucket ` + name + ` is not empty.*force_destroy`),
			},
			{
				Config: bucket(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_bucket.b", plancheck.ResourceActionUpdate),
				}},
				Check: resource.TestCheckResourceAttr("dwk_bucket.b", "force_destroy", "true"),
			},
			{
				// Deleted behind Terraform's back: the plan creates it again.
				PreConfig: func() {
					if err := emptyBucket(ctx, c, name); err != nil {
						t.Fatal(err)
					}
					if _, err := c.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: aws.String(name)}); err != nil {
						t.Fatal(err)
					}
				},
				Config:             bucket(true),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				// Recreated, filled again; the final destroy must empty it.
				Config: bucket(true),
				Check: func(*terraform.State) error {
					fill()
					return exists(true)
				},
			},
		},
	})
}

func TestAccBucketErrors(t *testing.T) {
	testAccPreCheck(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config:      `resource "dwk_bucket" "b" { name = "Not_A_Bucket" }`,
				ExpectError: regexp.MustCompile(`not a bucket name`),
			},
			{
				Config: `resource "dwk_bucket" "b" {
  name = "dwk-unreachable"
  s3   = { endpoint = "http://127.0.0.1:1", access_key = "a", secret_key = "b", path_style = true }
}`,
				ExpectError: regexp.MustCompile(`(?s)Cannot create bucket dwk-unreachable.*S3 endpoint: http://127.0.0.1:1`),
			},
		},
	})
}
