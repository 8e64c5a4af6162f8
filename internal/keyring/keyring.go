// Package keyring encrypts personal data at rest (issue 4: "personal fields encrypted
// at rest, AES-256-GCM from the standard library, key from a file or environment, key
// rotation supported").
//
// A Keyring holds numbered 256-bit keys; the newest encrypts, all decrypt, so keys can
// be rotated: add a key, re-seal old values with Reseal, then retire the old key.
// Every sealed value is bound to its context (associated data such as
// "person/CASE-12/name"), so a ciphertext moved to another record or field does not
// open.
package keyring

import (
	"bufio"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"solidarity"
)

// Keyring is a set of keys by id. The zero value has no keys. It is safe for
// concurrent use, and a keyring with a source (SetSource) reads its keys again on
// Reload and when it meets a value sealed with a key it does not hold, so that a
// running server follows a key rotation without a restart.
type Keyring struct {
	mu      sync.RWMutex
	keys    map[uint32]cipher.AEAD
	current uint32

	source     func() (*Keyring, error) // nil: the keys never change
	lastReload time.Time                // of a reload on a miss, to bound them
}

// missReloadEvery bounds the reloads that values sealed with unknown keys cause: a
// list of records sealed with a retired key reads the key file once, not per record.
const missReloadEvery = time.Second

// format of a sealed value: "k" + key id + "." + base64url(nonce || ciphertext || tag).
const prefix = "k"

// Parse reads keys, one per line as "ID:BASE64", where ID is a positive integer and
// BASE64 (standard or URL alphabet, padded or not) decodes to 32 bytes. Blank lines and
// lines starting with # are ignored. The highest ID encrypts. name is used in errors.
func Parse(name string, r io.Reader) (*Keyring, error) {
	k := &Keyring{keys: map[uint32]cipher.AEAD{}}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		fail := func(field, msg string) error {
			return &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: line, Field: field, Message: msg}
		}
		idText, keyText, ok := strings.Cut(s, ":")
		if !ok {
			return nil, fail("", `want "ID:BASE64KEY"`)
		}
		id, err := strconv.ParseUint(strings.TrimSpace(idText), 10, 32)
		if err != nil || id == 0 {
			return nil, fail("id", "the key id is a positive integer")
		}
		raw, err := decodeKey(strings.TrimSpace(keyText))
		if err != nil || len(raw) != 32 {
			return nil, fail("key", "the key is 32 bytes in base64 (AES-256)")
		}
		if _, dup := k.keys[uint32(id)]; dup {
			return nil, fail("id", fmt.Sprintf("key %d is given twice", id))
		}
		aead, err := newAEAD(raw)
		if err != nil {
			return nil, fail("key", err.Error())
		}
		k.keys[uint32(id)] = aead
		k.current = max(k.current, uint32(id))
	}
	if err := sc.Err(); err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: err.Error()}
	}
	if len(k.keys) == 0 {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: "no key"}
	}
	return k, nil
}

func decodeKey(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("not base64")
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// Load reads the keyring from the file named by $SOLIDARITY_KEYS_FILE, or from
// $SOLIDARITY_KEYS itself (lines separated by newlines or commas).
func Load() (*Keyring, error) {
	if f := os.Getenv("SOLIDARITY_KEYS_FILE"); f != "" {
		fh, err := os.Open(f)
		if err != nil {
			return nil, &solidarity.Error{Code: solidarity.EINVALID, File: f, Message: "cannot read the key file"}
		}
		defer fh.Close()
		return Parse(f, fh)
	}
	if v := os.Getenv("SOLIDARITY_KEYS"); v != "" {
		return Parse("$SOLIDARITY_KEYS", strings.NewReader(strings.ReplaceAll(v, ",", "\n")))
	}
	return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "SOLIDARITY_KEYS_FILE",
		Message: "no encryption key: set SOLIDARITY_KEYS_FILE (a file of ID:BASE64 lines) or SOLIDARITY_KEYS"}
}

// NewKey returns a fresh random key line "ID:BASE64" for a key file.
func NewKey(id uint32) string {
	b := make([]byte, 32)
	rand.Read(b)
	return fmt.Sprintf("%d:%s", id, base64.StdEncoding.EncodeToString(b))
}

// SetSource names where the keys come from (a key file), for Reload.
func (k *Keyring) SetSource(load func() (*Keyring, error)) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.source = load
}

// Reload reads the keys again from the source and replaces them, reporting whether
// they changed. Keys that do not parse leave the keyring as it was; a keyring
// without a source does not change.
func (k *Keyring) Reload() (changed bool, err error) {
	k.mu.RLock()
	load := k.source
	k.mu.RUnlock()
	if load == nil {
		return false, nil
	}
	n, err := load()
	if err != nil {
		return false, err
	}
	n.mu.RLock()
	keys, cur := n.keys, n.current
	n.mu.RUnlock()
	k.mu.Lock()
	defer k.mu.Unlock()
	changed = cur != k.current || len(keys) != len(k.keys)
	for id := range keys {
		if _, ok := k.keys[id]; !ok {
			changed = true
		}
	}
	k.keys, k.current = keys, cur
	return changed, nil
}

// reloadOnMiss reloads the keys when a value names a key this keyring lacks, at most
// once per missReloadEvery, and reports whether it now holds the key.
func (k *Keyring) reloadOnMiss(id uint32) (cipher.AEAD, bool) {
	k.mu.Lock()
	if k.source == nil || time.Since(k.lastReload) < missReloadEvery {
		k.mu.Unlock()
		return nil, false
	}
	k.lastReload = time.Now()
	k.mu.Unlock()
	if _, err := k.Reload(); err != nil {
		return nil, false
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	aead, ok := k.keys[id]
	return aead, ok
}

// Current is the id of the key that encrypts.
func (k *Keyring) Current() uint32 {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.current
}

// Seal encrypts plaintext bound to context with the current key.
func (k *Keyring) Seal(plaintext []byte, context string) (string, error) {
	k.mu.RLock()
	cur := k.current
	aead, ok := k.keys[cur]
	k.mu.RUnlock()
	if !ok {
		return "", &solidarity.Error{Code: solidarity.EINTERNAL, Message: "keyring has no current key"}
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := aead.Seal(nonce, nonce, plaintext, []byte(context))
	return prefix + strconv.FormatUint(uint64(cur), 10) + "." + base64.RawURLEncoding.EncodeToString(out), nil
}

// Open decrypts a value sealed for context. A wrong context, a changed byte or an
// unknown key is an error; the error never contains the value.
func (k *Keyring) Open(sealed, context string) ([]byte, error) {
	id, aead, body, err := k.parse(sealed)
	if err != nil {
		return nil, err
	}
	if len(body) < aead.NonceSize()+aead.Overhead() {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Message: "sealed value too short"}
	}
	nonce, ct := body[:aead.NonceSize()], body[aead.NonceSize():]
	pt, err := aead.Open(nil, nonce, ct, []byte(context))
	if err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("sealed value does not open with key %d in context %q (changed, moved or wrong key)", id, context)}
	}
	return pt, nil
}

func (k *Keyring) parse(sealed string) (uint32, cipher.AEAD, []byte, error) {
	bad := &solidarity.Error{Code: solidarity.EINVALID, Message: "not a sealed value"}
	if !strings.HasPrefix(sealed, prefix) {
		return 0, nil, nil, bad
	}
	idText, b64, ok := strings.Cut(sealed[len(prefix):], ".")
	if !ok {
		return 0, nil, nil, bad
	}
	id, err := strconv.ParseUint(idText, 10, 32)
	if err != nil {
		return 0, nil, nil, bad
	}
	k.mu.RLock()
	aead, ok := k.keys[uint32(id)]
	k.mu.RUnlock()
	if !ok {
		aead, ok = k.reloadOnMiss(uint32(id))
	}
	if !ok {
		return 0, nil, nil, &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("sealed with key %d, which the keyring does not hold", id)}
	}
	body, err := base64.RawURLEncoding.DecodeString(b64)
	if err != nil {
		return 0, nil, nil, bad
	}
	return uint32(id), aead, body, nil
}

// KeyOf returns the id of the key a value was sealed with.
func KeyOf(sealed string) (uint32, bool) {
	if !strings.HasPrefix(sealed, prefix) {
		return 0, false
	}
	idText, _, ok := strings.Cut(sealed[len(prefix):], ".")
	id, err := strconv.ParseUint(idText, 10, 32)
	return uint32(id), ok && err == nil
}

// Reseal re-encrypts a value with the current key (key rotation). A value already
// sealed with the current key is returned unchanged.
func (k *Keyring) Reseal(sealed, context string) (string, error) {
	if id, ok := KeyOf(sealed); ok && id == k.Current() {
		return sealed, nil
	}
	pt, err := k.Open(sealed, context)
	if err != nil {
		return "", err
	}
	return k.Seal(pt, context)
}

// Secret is a personal value in memory. It prints and logs as [redacted]; only Reveal
// gives the value, so that a stray %v or slog attribute cannot leak it.
type Secret struct{ v string }

// NewSecret wraps v.
func NewSecret(v string) Secret { return Secret{v} }

// Reveal returns the value.
func (s Secret) Reveal() string { return s.v }

// IsZero reports whether the value is empty.
func (s Secret) IsZero() bool { return s.v == "" }

func (Secret) String() string               { return "[redacted]" }
func (Secret) GoString() string             { return "keyring.Secret{[redacted]}" }
func (Secret) LogValue() slog.Value         { return slog.StringValue("[redacted]") }
func (Secret) MarshalText() ([]byte, error) { return []byte("[redacted]"), nil }
