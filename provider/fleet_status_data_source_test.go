package provider

import (
	"fmt"
	"net"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// The data source against a live fleet is tested in TestAccFleetSSH.
func TestAccFleetStatusUnreachable(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf(`data "dwk_fleet_status" "s" {
  admin_urls  = [%q]
  admin_token = "0123456789abcdef"
}`, closed),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr("data.dwk_fleet_status.s", "ready", "0"),
					resource.TestCheckResourceAttr("data.dwk_fleet_status.s", "members.0.state", "unreachable"),
					resource.TestMatchResourceAttr("data.dwk_fleet_status.s", "members.0.error", regexp.MustCompile("connection refused")),
				),
			},
			{
				Config:      `data "dwk_fleet_status" "s" { admin_token = "x" }`,
				ExpectError: regexp.MustCompile(`Give admin_urls, hosts, or both`),
			},
		},
	})
}
