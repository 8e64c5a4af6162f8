package web_test

import (
	"io"
	"net/http"
	"testing"
)

// TestWrongMethodAPI checks that a method a path of the API does not have answers 405
// with the path's methods in Allow and the API's JSON error body, as a wrong method
// outside /api/ answers 405 from the mux.
func TestWrongMethodAPI(t *testing.T) {
	doc, _ := MustOpenAPI(t)
	ts := MustServer(t)
	for _, c := range []struct{ method, target, allow string }{
		{"DELETE", "/api/v1/cycles", "GET, HEAD"},
		{"PUT", "/api/v1/pool", "POST"},
		{"PUT", "/api/v1/session", "POST, DELETE"},
		{"POST", "/api/v1/cycles/2026/pool", "GET, HEAD"},
		{"DELETE", "/api/v1/ledger/entries", "GET, HEAD"},
	} {
		t.Run(c.method+" "+c.target, func(t *testing.T) {
			req, err := http.NewRequest(c.method, ts.URL+c.target, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Fatalf("status %d, want 405; body %s", resp.StatusCode, body)
			}
			if got := resp.Header.Get("Allow"); got != c.allow {
				t.Errorf("Allow %q, want %q", got, c.allow)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("content type %q", ct)
			}
			checkError(t, doc, body, apiCase{})
			if e := errorBody(t, body); e.Code != "method_not_allowed" {
				t.Errorf("code %q", e.Code)
			}
		})
	}
	// Outside the API the mux answers, as before.
	resp, err := http.Post(ts.URL+"/healthz", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") == "" {
		t.Errorf("POST /healthz: %d, Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
}
