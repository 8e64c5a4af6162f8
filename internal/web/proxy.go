package web

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"solidarity"
)

// ParseTrustedProxies parses a comma-separated list of CIDR prefixes or single
// addresses (serve --trusted-proxy).
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			a, aerr := netip.ParseAddr(f)
			if aerr != nil {
				return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "--trusted-proxy",
					Message: fmt.Sprintf("%q is not an address or a CIDR prefix like 10.0.0.0/8", f)}
			}
			a = a.Unmap()
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// WithTrustedProxies makes the server believe X-Forwarded-Proto and X-Forwarded-For
// from these peers (a TLS-terminating reverse proxy): the session cookie is then
// Secure when the proxy says the client spoke https, and the login throttle counts
// the client's address rather than the proxy's. From any other peer both headers are
// ignored.
func WithTrustedProxies(p []netip.Prefix) Option { return func(s *Server) { s.proxies = p } }

// WithTLS serves https directly (ListenAndServe) with the certificate chain and key in
// these PEM files; New fails if they cannot be loaded.
func WithTLS(certFile, keyFile string) Option {
	return func(s *Server) { s.tlsCert, s.tlsKey = certFile, keyFile }
}

// CheckTLS reports whether WithTLS(certFile, keyFile) would load (both given and
// readable, or neither), so that serve fails before it touches the database.
func CheckTLS(certFile, keyFile string) error {
	return (&Server{tlsCert: certFile, tlsKey: keyFile}).loadTLS()
}

// loadTLS loads the certificate of WithTLS, if any.
func (s *Server) loadTLS() error {
	if s.tlsCert == "" && s.tlsKey == "" {
		return nil
	}
	if s.tlsCert == "" || s.tlsKey == "" {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--tls-cert", Message: "--tls-cert and --tls-key go together"}
	}
	c, err := tls.LoadX509KeyPair(s.tlsCert, s.tlsKey)
	if err != nil {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--tls-cert", Message: "cannot load the TLS certificate and key: " + err.Error()}
	}
	s.tlsConfig = &tls.Config{Certificates: []tls.Certificate{c}, MinVersion: tls.VersionTLS12}
	return nil
}

// TLS reports whether the server serves https itself (WithTLS).
func (s *Server) TLS() bool { return s.tlsConfig != nil }

// peer is the address the connection comes from.
func peer(r *http.Request) (netip.Addr, bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// fromTrustedProxy reports whether the request's peer is a configured proxy.
func (s *Server) fromTrustedProxy(r *http.Request) bool {
	a, ok := peer(r)
	return ok && len(s.proxies) > 0 && s.trusted(a)
}

// secure reports whether the client reached us over TLS: directly, or through a
// trusted proxy that says so in X-Forwarded-Proto (the value the nearest proxy added,
// the last of a list).
func (s *Server) secure(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if !s.fromTrustedProxy(r) {
		return false
	}
	v := r.Header.Values("X-Forwarded-Proto")
	if len(v) == 0 {
		return false
	}
	parts := strings.Split(v[len(v)-1], ",")
	return strings.EqualFold(strings.TrimSpace(parts[len(parts)-1]), "https")
}

// clientIP is the client's address: the peer's, or behind trusted proxies the last
// address in X-Forwarded-For that is not one of them (addresses further left were
// written by the client and prove nothing).
func (s *Server) clientIP(r *http.Request) string {
	a, ok := peer(r)
	if !ok {
		return r.RemoteAddr
	}
	if len(s.proxies) == 0 || !s.trusted(a) {
		return a.String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		h, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a hop we cannot read: stop at the last one we trust
		}
		h = h.Unmap()
		a = h
		if !s.trusted(h) {
			break
		}
	}
	return a.String()
}
