// Package client is the JSON API of a solidarity server (internal/web) as the root
// package's service interfaces: a Client is a solidarity.LedgerService, a
// solidarity.LedgerReader, a solidarity.CaseService, a solidarity.CaseReader and a
// solidarity.DeadlineService, as the services on a local store are, so that the
// command line runs one code path for a local database and for a server.
//
// Files: routes.go holds the API's routes, which the server registers its handlers
// on; client.go the Client and its one request function; ledger.go (the ledger),
// cases.go (arrivals, events, allocations and the case reads) and deadlines.go the
// operations. The client logs nothing: a ship's list and a person travel in the
// request or the answer body only.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"solidarity"
)

// Client calls one server. The acting user is the owner of Token, never the user of
// a call's context: the server authenticates it and applies its role.
type Client struct {
	// URL is the server's base URL, such as https://pool.example.org.
	URL string
	// Token is an API token (solidarity token create); "" acts as the public.
	Token string
	// HTTP sends the requests; New sets one with a one-minute timeout.
	HTTP *http.Client
}

// New returns a client of the server at url acting with token.
func New(url, token string) *Client {
	return &Client{URL: url, Token: token, HTTP: &http.Client{Timeout: 60 * time.Second}}
}

// maxAnswer bounds an answer read into memory (a page of entries is far smaller).
const maxAnswer = 64 << 20

// toml is a request body sent as a cycle file, not as JSON.
type toml string

// rawJSON is a request body already written as JSON (a ship's list in its import
// form), sent as it is.
type rawJSON []byte

// do sends one request and decodes a JSON answer into out (unless nil). body is nil,
// a toml file, rawJSON or a value sent as JSON; idemKey, when not "", is the
// Idempotency-Key. An API error comes back as the server's *solidarity.Error, with
// its code; replayed reports an answer of a retry (Idempotency-Replayed: true).
func (c *Client) do(ctx context.Context, method, path string, body any, idemKey string, out any) (replayed bool, err error) {
	var rd io.Reader
	ctype := "application/json"
	switch b := body.(type) {
	case nil:
	case toml:
		rd, ctype = strings.NewReader(string(b)), "application/toml"
	case rawJSON:
		rd = bytes.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			return false, err
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.URL, "/")+path, rd)
	if err != nil {
		return false, &solidarity.Error{Code: solidarity.EINVALID, Field: "--server", Message: err.Error()}
	}
	if rd != nil {
		req.Header.Set("Content-Type", ctype)
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	if idemKey != "" {
		req.Header.Set("Idempotency-Key", idemKey)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	res, err := hc.Do(req)
	if err != nil {
		return false, fmt.Errorf("server %s: %w", c.URL, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		return false, err
	}
	if res.StatusCode >= 400 {
		var e struct {
			Error solidarity.Error `json:"error"`
		}
		if json.Unmarshal(data, &e) == nil && e.Error.Code != "" {
			return false, &e.Error
		}
		return false, fmt.Errorf("server %s: %s", c.URL, res.Status)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return false, fmt.Errorf("server %s: unexpected answer: %w", c.URL, err)
		}
	}
	return res.Header.Get("Idempotency-Replayed") == "true", nil
}
