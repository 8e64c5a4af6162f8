package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestLocalPath: the login form's next goes only to paths on this site, however it
// is disguised (issue 12: "/%09/evil.example" reached the browser as //evil.example).
func TestLocalPath(t *testing.T) {
	for in, want := range map[string]string{
		"/pool/2026":            "/pool/2026",
		"/cases/C-1?x=1":        "/cases/C-1?x=1",
		"/arrivals/":            "/arrivals/",
		"/":                     "/",
		"":                      "/",
		"pool":                  "/",
		"//evil.example":        "/",
		"/\t/evil.example":      "/",
		"/\n/evil.example":      "/",
		"/\r\n/evil.example":    "/",
		"\t//evil.example":      "/",
		"/\\evil.example":       "/",
		"\\\\evil.example":      "/",
		"/\\/evil.example":      "/",
		"https://evil.example/": "/",
		"javascript:alert(1)":   "/",
		"/%2F/evil.example":     "/evil.example",
		"/./%2Fevil.example":    "/evil.example",
		"/a/..//evil.example":   "/evil.example",
		"/\x00/evil.example":    "/",
		"/\u0085/evil.example":  "/",
		"/%09/evil.example":     "/%09/evil.example", // a literal %09 stays escaped: a path
		"/pool/2026#top":        "/pool/2026#top",
		"/a b":                  "/a%20b",
		"/x\x7f/y":              "/x/y",
	} {
		if got := localPath(in); got != want {
			t.Errorf("localPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// checkLocal is the property every output of localPath has, also after the browser
// strips what it strips and http.Redirect cleans it.
func checkLocal(t *testing.T, in, out string) {
	t.Helper()
	if !strings.HasPrefix(out, "/") || strings.HasPrefix(out, "//") || strings.HasPrefix(out, "/\\") {
		t.Fatalf("localPath(%q) = %q: not a single leading slash", in, out)
	}
	if strings.IndexFunc(out, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) >= 0 {
		t.Fatalf("localPath(%q) = %q: control character or backslash", in, out)
	}
	u, err := url.Parse(out)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		t.Fatalf("localPath(%q) = %q: parses as %#v, %v", in, out, u, err)
	}
	// What the browser gets: http.Redirect's Location, read relative to this site.
	w := httptest.NewRecorder()
	http.Redirect(w, httptest.NewRequest("GET", "/login", nil), out, http.StatusSeeOther)
	loc := w.Header().Get("Location")
	base, _ := url.Parse("https://solidarity.example/login")
	ref, err := url.Parse(loc)
	if err != nil {
		t.Fatalf("Location %q: %v", loc, err)
	}
	if got := base.ResolveReference(ref); got.Host != "solidarity.example" || got.Scheme != "https" {
		t.Fatalf("localPath(%q) = %q: Location %q leaves the site (%s)", in, out, loc, got)
	}
	if strings.HasPrefix(loc, "//") {
		t.Fatalf("localPath(%q): Location %q", in, loc)
	}
}

func FuzzLocalPath(f *testing.F) {
	for _, s := range []string{"/pool/2026", "//evil.example", "/\t/evil.example", "/%2F/x", "/\\x", "http://x/",
		"/a/../../b", "/?next=//x", "/#//x", "/\u2028/x", "/..", "/.\t./x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkLocal(t, in, localPath(in))
	})
}

// TestLimiterBounded: however many addresses fail, the throttle remembers at most
// maxTracked keys per part, and still the key that just failed.
func TestLimiterBounded(t *testing.T) {
	now := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newLoginLimiter(pairFree, pairBase, func() time.Time { return now })
	for i := range maxTracked + 500 {
		l.Fail("victim", fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255))
	}
	if n, m := len(l.pair.keys), len(l.addr.fails); n > maxTracked || m > maxTracked {
		t.Fatalf("%d pair keys, %d address keys: over %d", n, m, maxTracked)
	}
	for range pairFree {
		l.Fail("victim", "192.0.2.1")
	}
	if ok, _ := l.Allow("victim", "192.0.2.1"); ok {
		t.Fatal("the key that failed last was forgotten")
	}
}

func TestPairKeyBounded(t *testing.T) {
	if k := pairKey(strings.Repeat("x", 1<<20), "10.0.0.1"); len(k) > maxNameKey+20 {
		t.Fatalf("a key of %d bytes", len(k))
	}
	if pairKey("Maria", "10.0.0.1") != pairKey("maria", "::ffff:10.0.0.1") {
		t.Fatal("the same name from the same address, two keys")
	}
}
