package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"solidarity"
	"solidarity/internal/casesvc"
	"solidarity/internal/keyring"
	"solidarity/internal/ledgersvc"
)

// Keys returns the keyring that seals personal records of the database st: from
// $SOLIDARITY_KEYS_FILE or $SOLIDARITY_KEYS when set (internal/keyring.Load). Without
// them, an embedded SQLite database keeps its key beside it in DB.keys (mode 0600),
// so the quickstart needs no setup; the file is created only while the database holds
// no sealed record, so that a lost or moved key file is an error, never replaced by a
// new key that would open nothing. A PostgreSQL database refuses to start without a
// key: it must not live on the application host by accident. created reports a new
// file.
func Keys(ctx context.Context, dsn string, st solidarity.CaseStore) (k *keyring.Keyring, created string, err error) {
	return KeysMode(ctx, dsn, st, Create)
}

// KeysMode is Keys for a store opened in mode m: only Create and Existing may create
// the key file; a command that only reads, on a database whose key file is missing,
// gets a keyring without keys (it reads no personal record).
func KeysMode(ctx context.Context, dsn string, st solidarity.CaseStore, m Mode) (k *keyring.Keyring, created string, err error) {
	if os.Getenv("SOLIDARITY_KEYS_FILE") != "" || os.Getenv("SOLIDARITY_KEYS") != "" {
		k, err := keyring.Load()
		if err == nil && os.Getenv("SOLIDARITY_KEYS_FILE") != "" {
			k.SetSource(keyring.Load)
		}
		return k, "", err
	}
	if IsPostgres(dsn) {
		return nil, "", &solidarity.Error{Code: solidarity.EINVALID, Field: "SOLIDARITY_KEYS_FILE",
			Message: "a PostgreSQL database needs its encryption key: set SOLIDARITY_KEYS_FILE to a file of ID:BASE64 lines ('solidarity keys new' makes one)"}
	}
	path := strings.TrimPrefix(dsn, "sqlite:") + ".keys"
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) && m == ReadOnly {
		return &keyring.Keyring{}, "", nil
	} else if errors.Is(err, os.ErrNotExist) {
		recs, err := st.Cases(ctx, solidarity.CaseFilter{NotErased: true, Limit: 1})
		if err != nil {
			return nil, "", err
		}
		if len(recs) > 0 && recs[0].Personal != "" {
			return nil, "", &solidarity.Error{Code: solidarity.EINVALID, File: path,
				Message: "the key file is missing but the database holds encrypted personal records: restore the key file, or set SOLIDARITY_KEYS_FILE"}
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case err == nil:
		_, werr := fmt.Fprintln(f, keyring.NewKey(1))
		if serr := f.Sync(); werr == nil {
			werr = serr
		}
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(path)
			return nil, "", fmt.Errorf("writing the key file %s: %w", path, werr)
		}
		created = path
	case !errors.Is(err, os.ErrExist):
		return nil, "", &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: "cannot create the key file"}
	}
	load := func() (*keyring.Keyring, error) { return parseKeyFile(path) }
	if k, err = load(); err != nil {
		return nil, "", err
	}
	k.SetSource(load)
	return k, created, nil
}

func parseKeyFile(path string) (*keyring.Keyring, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: "cannot read the key file"}
	}
	defer fh.Close()
	return keyring.Parse(path, fh)
}

// KeysFile is the key file a database's keyring is read from ($SOLIDARITY_KEYS_FILE,
// else DB.keys beside a SQLite database), or "" when the keys come from
// $SOLIDARITY_KEYS.
func KeysFile(dsn string) string {
	if f := os.Getenv("SOLIDARITY_KEYS_FILE"); f != "" {
		return f
	}
	if os.Getenv("SOLIDARITY_KEYS") != "" || IsPostgres(dsn) {
		return ""
	}
	return strings.TrimPrefix(dsn, "sqlite:") + ".keys"
}

// WatchKeys reloads k until ctx ends: when a value from hup arrives (SIGHUP) and when
// the key file changes (its size or modification time, looked at every interval), so
// that a running server follows 'solidarity keys new' and 'keys reseal' without a
// restart. A value sealed with a key k lacks reloads it at once as well
// (internal/keyring). A key file that does not parse is logged and the keys in use
// stay.
func WatchKeys(ctx context.Context, k *keyring.Keyring, file string, every time.Duration, hup <-chan os.Signal, logger *slog.Logger) {
	stamp := func() (time.Time, int64) {
		if fi, err := os.Stat(file); err == nil {
			return fi.ModTime(), fi.Size()
		}
		return time.Time{}, -1
	}
	mod, size := stamp()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		why := ""
		select {
		case <-ctx.Done():
			return
		case <-hup:
			why = "SIGHUP"
		case <-t.C:
			if file == "" {
				continue
			}
			m, n := stamp()
			if m.Equal(mod) && n == size {
				continue
			}
			mod, size, why = m, n, "the key file changed"
		}
		changed, err := k.Reload()
		switch {
		case err != nil:
			logger.Error("reloading the encryption keys; the keys in use stay", slog.String("reason", why), slog.String("error", solidarity.ErrorMessage(err)))
		case changed:
			logger.Info("reloaded the encryption keys", slog.String("reason", why), slog.Uint64("current_key", uint64(k.Current())))
		}
	}
}

// CasesOn returns the case-flow service on st, the store of the ledger service svc
// (whose clock it shares), sealing with keys.
func CasesOn(st Store, svc *ledgersvc.Service, keys *keyring.Keyring) *casesvc.Service {
	c := casesvc.New(st, keys)
	c.Now = func() time.Time { return svc.Now() }
	c.Ledger = svc
	return c
}

// Cases is CasesOn for a caller that holds only the ledger service (tests that build
// it on a store of their own): the store must keep cases too.
func Cases(svc *ledgersvc.Service, keys *keyring.Keyring) (*casesvc.Service, error) {
	st, ok := svc.Store.(Store)
	if !ok {
		return nil, fmt.Errorf("app: store %T keeps no cases", svc.Store)
	}
	return CasesOn(st, svc, keys), nil
}
