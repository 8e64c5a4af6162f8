package keyring_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/keyring"
)

func ring(t *testing.T, lines ...string) *keyring.Keyring {
	t.Helper()
	k, err := keyring.Parse("keys", strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestSealOpen(t *testing.T) {
	k1 := keyring.NewKey(1)
	k := ring(t, k1)
	s, err := k.Seal([]byte("Amina Yusuf"), "person/C-1/name")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s, "Amina") {
		t.Fatal("plaintext in the sealed value")
	}
	pt, err := k.Open(s, "person/C-1/name")
	if err != nil || string(pt) != "Amina Yusuf" {
		t.Fatalf("open: %q %v", pt, err)
	}
	// Moved to another record or field: refused.
	if _, err := k.Open(s, "person/C-2/name"); solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Fatalf("other context opened: %v", err)
	}
	// One changed character: refused.
	b := []byte(s)
	b[len(b)-3] ^= 1
	if _, err := k.Open(string(b), "person/C-1/name"); err == nil {
		t.Fatal("tampered value opened")
	}
	// Two seals of the same value differ (random nonce).
	s2, _ := k.Seal([]byte("Amina Yusuf"), "person/C-1/name")
	if s2 == s {
		t.Fatal("deterministic encryption")
	}
}

func TestRotation(t *testing.T) {
	k1, k2 := keyring.NewKey(1), keyring.NewKey(2)
	old := ring(t, k1)
	s, _ := old.Seal([]byte("secret"), "c")
	both := ring(t, k2, k1) // order in the file does not matter: the highest id encrypts
	if both.Current() != 2 {
		t.Fatalf("current %d", both.Current())
	}
	if pt, err := both.Open(s, "c"); err != nil || string(pt) != "secret" {
		t.Fatalf("old value under the new ring: %v", err)
	}
	r, err := both.Reseal(s, "c")
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := keyring.KeyOf(r); id != 2 {
		t.Fatalf("resealed with key %d", id)
	}
	if again, _ := both.Reseal(r, "c"); again != r {
		t.Fatal("resealing a current value changed it")
	}
	// Once key 1 is retired, only the resealed value opens.
	only2 := ring(t, k2)
	if _, err := only2.Open(s, "c"); err == nil {
		t.Fatal("a value sealed with a retired key opened")
	}
	if pt, err := only2.Open(r, "c"); err != nil || string(pt) != "secret" {
		t.Fatalf("resealed value: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	good := keyring.NewKey(1)
	for _, tc := range []struct {
		src, field string
		line       int
	}{
		{"", "", 0},
		{"# only a comment\n", "", 0},
		{"1 " + good[2:], "", 1},
		{"0:" + good[2:], "id", 1},
		{"x:" + good[2:], "id", 1},
		{"\n2:c2hvcnQ=", "key", 2},
		{good + "\n" + good, "id", 2},
	} {
		_, err := keyring.Parse("keys", strings.NewReader(tc.src))
		e, ok := err.(*solidarity.Error)
		if !ok || e.Code != solidarity.EINVALID || e.Line != tc.line || e.Field != tc.field {
			t.Errorf("%q: got %#v", tc.src, err)
		}
		if err != nil && strings.Contains(err.Error(), good[2:]) {
			t.Errorf("an error shows the key")
		}
	}
}

func TestSecretNeverPrints(t *testing.T) {
	s := keyring.NewSecret("Amina Yusuf")
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("case", "name", s, "all", struct{ N keyring.Secret }{s})
	fmt.Fprintf(&buf, "%v %+v %#v %s", s, s, s, s)
	j, _ := json.Marshal(map[string]keyring.Secret{"n": s})
	buf.Write(j)
	if strings.Contains(buf.String(), "Amina") {
		t.Fatalf("the secret leaked: %s", buf.String())
	}
	if s.Reveal() != "Amina Yusuf" {
		t.Fatal("Reveal")
	}
}

func FuzzOpen(f *testing.F) {
	k, _ := keyring.Parse("keys", strings.NewReader("1:"+strings.Repeat("A", 43)+"="))
	s, _ := k.Seal([]byte("x"), "c")
	f.Add(s)
	f.Add("k1.")
	f.Add("k99999999999.AAAA")
	f.Fuzz(func(t *testing.T, v string) {
		k.Open(v, "c") // never panics
		k.Reseal(v, "c")
	})
}

func FuzzParse(f *testing.F) {
	f.Add(keyring.NewKey(1) + "\n" + keyring.NewKey(7))
	f.Add("# c\n\n3:" + strings.Repeat("_", 43))
	f.Fuzz(func(t *testing.T, src string) {
		k, err := keyring.Parse("f", strings.NewReader(src))
		if err == nil && k.Current() == 0 {
			t.Fatal("a keyring without a current key")
		}
	})
}

// A keyring with a source follows a rotation: Reload takes the new keys, and a value
// sealed with a key it does not hold yet reloads at once and opens.
func TestReloadFollowsRotation(t *testing.T) {
	k1, k2 := keyring.NewKey(1), keyring.NewKey(2)
	file := []string{k1}
	load := func() (*keyring.Keyring, error) {
		return keyring.Parse("keys", strings.NewReader(strings.Join(file, "\n")))
	}
	running, _ := load()
	running.SetSource(load)
	old, err := running.Seal([]byte("Amina Yusuf"), "person/C-1")
	if err != nil {
		t.Fatal(err)
	}
	// Another process rotates: adds key 2 and reseals with it.
	file = append(file, k2)
	rotated, _ := load()
	resealed, err := rotated.Reseal(old, "person/C-1")
	if err != nil || !strings.HasPrefix(resealed, "k2.") {
		t.Fatalf("reseal: %q %v", resealed, err)
	}
	// The running keyring opens the resealed value without being told.
	if pt, err := running.Open(resealed, "person/C-1"); err != nil || string(pt) != "Amina Yusuf" {
		t.Fatalf("open after rotation: %q %v", pt, err)
	}
	if running.Current() != 2 {
		t.Errorf("current key %d after reload, want 2", running.Current())
	}
	// A key file that does not parse leaves the keys in use.
	file = []string{"garbage"}
	if changed, err := running.Reload(); err == nil || changed {
		t.Errorf("reload of a bad file: changed %v, err %v", changed, err)
	}
	if _, err := running.Open(resealed, "person/C-1"); err != nil {
		t.Errorf("keys lost after a bad reload: %v", err)
	}
	// Key 1 retired: Reload drops it.
	file = []string{k2}
	if changed, err := running.Reload(); err != nil || !changed {
		t.Errorf("reload: changed %v, err %v", changed, err)
	}
	if _, err := running.Open(old, "person/C-1"); err == nil {
		t.Error("a retired key still opens")
	}
	// Without a source nothing changes.
	fixed := ring(t, k1)
	if _, err := fixed.Open(resealed, "person/C-1"); err == nil {
		t.Error("a keyring without a source opened a value of an unknown key")
	}
}

// Seal, Open and Reload may run at once (go test -race).
func TestReloadConcurrent(t *testing.T) {
	k1 := keyring.NewKey(1)
	load := func() (*keyring.Keyring, error) { return keyring.Parse("keys", strings.NewReader(k1)) }
	k, _ := load()
	k.SetSource(load)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 200 {
			k.Reload()
		}
	}()
	for range 200 {
		s, err := k.Seal([]byte("x"), "c")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.Open(s, "c"); err != nil {
			t.Fatal(err)
		}
	}
	<-done
}
