package fleet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/dwk/fleet/appliance/fleet/protocol"
)

var client = &http.Client{Timeout: 30 * time.Second}

// post sends a POST and decodes a JSON answer; it returns the status and
// the serving member.
func post(url string, out any) (int, string, error) {
	return do("POST", url, out)
}

// postAsFrontDoor is post, sent again (up to 5 times, 200ms apart) while
// the replica gives the protocol's retry answer, which says that nothing
// took effect: the front door replays such an answer, and a replica on a
// loaded machine may give one while it briefly cannot reach its stores.
func postAsFrontDoor(url string, out any) (int, string, error) {
	for i := 0; ; i++ {
		var retry bool
		c := *client
		c.Transport = retrySpy{&retry}
		req, err := http.NewRequest("POST", url, nil)
		if err != nil {
			return 0, "", err
		}
		code, member, err := sendVia(&c, req, out)
		if !retry || i == 4 {
			return code, member, err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// retrySpy notes whether a response was a retry answer.
type retrySpy struct{ retry *bool }

func (s retrySpy) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		*s.retry = protocol.IsRetry(resp.StatusCode, resp.Header)
	}
	return resp, err
}

// postJSON sends body as JSON.
func postJSON(url string, body any, out any) (int, string, error) {
	b, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", url, bytes.NewReader(b))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	return send(req, out)
}

func get(url string, out any) (int, string, error) {
	return do("GET", url, out)
}

func do(method, url string, out any) (int, string, error) {
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		return 0, "", err
	}
	return send(req, out)
}

func send(req *http.Request, out any) (int, string, error) {
	return sendVia(client, req, out)
}

// sendVia is send with client c.
func sendVia(c *http.Client, req *http.Request, out any) (int, string, error) {
	method, url := req.Method, req.URL.String()
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return resp.StatusCode, resp.Header.Get("X-Dwk-Member"), fmt.Errorf("%s %s: %s: %s", method, url, resp.Status, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return resp.StatusCode, "", fmt.Errorf("%s %s: %v in %q", method, url, err, b)
		}
	}
	return resp.StatusCode, resp.Header.Get("X-Dwk-Member"), nil
}
