package web_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"solidarity/internal/catalog"
	"solidarity/internal/web"
)

// loginVia posts a login to the handler as if from peer, with the given headers, and
// returns the response.
func loginVia(t *testing.T, f *fixture, name, password, peer string, header map[string]string) *http.Response {
	t.Helper()
	r := httptestRequest("POST", "/api/v1/session", "")
	r.Body = nopCloser{strings.NewReader(fmt.Sprintf(`{"name":%q,"password":%q}`, name, password))}
	r.Header.Set("Content-Type", "application/json")
	r.RemoteAddr = peer + ":4321"
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := newRecorder()
	f.srv.ServeHTTP(w, r)
	return w.Result()
}

type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }

func sessionCookie(res *http.Response) *http.Cookie {
	for _, c := range res.Cookies() {
		if c.Name == web.SessionCookie {
			return c
		}
	}
	return nil
}

// TestTrustedProxy: behind a TLS-terminating proxy the session cookie is Secure when
// the proxy says https (issue 12: it never was), and only a configured proxy is
// believed: the same headers from any other peer change nothing.
func TestTrustedProxy(t *testing.T) {
	proxies, err := web.ParseTrustedProxies("10.0.0.0/8, 192.0.2.7")
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, fixtureOpts{passwords: true, options: []web.Option{web.WithTrustedProxies(proxies)}})
	https := map[string]string{"X-Forwarded-Proto": "https"}
	for _, tc := range []struct {
		peer   string
		header map[string]string
		secure bool
	}{
		{"10.1.2.3", https, true},
		{"192.0.2.7", https, true},
		{"10.1.2.3", map[string]string{"X-Forwarded-Proto": "http"}, false},
		{"10.1.2.3", nil, false},
		{"192.0.2.8", https, false}, // forged: not a proxy of ours
		{"203.0.113.1", https, false},
	} {
		res := loginVia(t, f, "de", testPassword, tc.peer, tc.header)
		c := sessionCookie(res)
		if res.StatusCode != 201 || c == nil {
			t.Fatalf("%s %v: %d", tc.peer, tc.header, res.StatusCode)
		}
		if c.Secure != tc.secure {
			t.Errorf("from %s with %v: Secure %v, want %v", tc.peer, tc.header, c.Secure, tc.secure)
		}
	}

	// The throttle counts the client behind the proxy, not the proxy ...
	for range 5 {
		loginVia(t, f, "fr", "wrong password", "10.1.2.3", map[string]string{"X-Forwarded-For": "198.51.100.1"})
	}
	if res := loginVia(t, f, "fr", testPassword, "10.1.2.3", map[string]string{"X-Forwarded-For": "198.51.100.1"}); res.StatusCode != 429 {
		t.Fatalf("the guessing client behind the proxy: %d", res.StatusCode)
	}
	if res := loginVia(t, f, "fr", testPassword, "10.1.2.3", map[string]string{"X-Forwarded-For": "198.51.100.2"}); res.StatusCode != 201 {
		t.Fatalf("another client behind the same proxy: %d", res.StatusCode)
	}
	// ... and a client cannot pick its own address by writing the header first.
	if res := loginVia(t, f, "fr", testPassword, "10.1.2.3", map[string]string{"X-Forwarded-For": "198.51.100.9, 198.51.100.1"}); res.StatusCode != 429 {
		t.Fatalf("a forged first hop: %d", res.StatusCode)
	}
	// From a peer that is no proxy of ours, X-Forwarded-For is ignored.
	for range 5 {
		loginVia(t, f, "it", "wrong password", "203.0.113.5", map[string]string{"X-Forwarded-For": "198.51.100.3"})
	}
	if res := loginVia(t, f, "it", testPassword, "203.0.113.5", map[string]string{"X-Forwarded-For": "198.51.100.4"}); res.StatusCode != 429 {
		t.Fatalf("a forged X-Forwarded-For from an untrusted peer changed the address: %d", res.StatusCode)
	}

	if _, err := web.ParseTrustedProxies("10.0.0.0/8,proxy.example"); err == nil {
		t.Error("a host name is not an address")
	}
}

// TestServeTLS: with WithTLS the server speaks https itself and the cookie is Secure.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	cert, key := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	pool := writeCert(t, cert, key)
	f := newFixture(t, fixtureOpts{passwords: true})
	srv, err := web.New(&catalog.Catalog{}, nil, 2027, web.WithLedger(f.svc), web.WithTLS(cert, key))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := web.New(&catalog.Catalog{}, nil, 2027, web.WithTLS(cert, filepath.Join(dir, "missing.pem"))); err == nil {
		t.Fatal("a missing key must fail the start")
	}
	ctx, cancel := context.WithCancel(context.Background())
	addrc, done := make(chan net.Addr, 1), make(chan error, 1)
	go func() { done <- srv.ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addrc <- a }) }()
	defer func() {
		cancel()
		<-done
	}()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	res, err := client.Post("https://"+addr.String()+"/api/v1/session", "application/json",
		strings.NewReader(fmt.Sprintf(`{"name":"de","password":%q}`, testPassword)))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if c := sessionCookie(res); res.StatusCode != 201 || c == nil || !c.Secure {
		t.Fatalf("login over TLS: %d, cookie %v", res.StatusCode, c)
	}
}

// writeCert writes a self-signed certificate for 127.0.0.1 and its key, and returns
// a pool that trusts it.
func writeCert(t *testing.T, certFile, keyFile string) *x509.CertPool {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "solidarity test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kd, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kd}), 0o600); err != nil {
		t.Fatal(err)
	}
	c, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(c)
	return pool
}
