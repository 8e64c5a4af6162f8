package app_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"solidarity/internal/app"
	"solidarity/internal/keyring"
)

// WatchKeys reloads the keyring on SIGHUP (here: a value on its channel) and when the
// key file changes.
func TestWatchKeys(t *testing.T) {
	t.Setenv("SOLIDARITY_KEYS", "")
	file := filepath.Join(t.TempDir(), "keys")
	t.Setenv("SOLIDARITY_KEYS_FILE", file)
	os.WriteFile(file, []byte(keyring.NewKey(1)+"\n"), 0o600)
	k, _, err := app.Keys(context.Background(), "unused.db", nil)
	if err != nil {
		t.Fatal(err)
	}
	if app.KeysFile("unused.db") != file {
		t.Fatalf("KeysFile %q", app.KeysFile("unused.db"))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hup := make(chan os.Signal)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	// A long poll: only the signal reloads.
	go app.WatchKeys(ctx, k, file, time.Hour, hup, logger)
	os.WriteFile(file, []byte(keyring.NewKey(1)+"\n"+keyring.NewKey(2)+"\n"), 0o600)
	hup <- os.Interrupt
	hup <- os.Interrupt // the first was taken, and the reload it caused is done or under way
	waitKey(t, k, 2)

	// A short poll: the changed file reloads without a signal.
	go app.WatchKeys(ctx, k, file, time.Millisecond, make(chan os.Signal), logger)
	os.WriteFile(file, []byte(keyring.NewKey(3)+"\n"), 0o600)
	waitKey(t, k, 3)
}

func waitKey(t *testing.T, k *keyring.Keyring, want uint32) {
	t.Helper()
	for range 5000 {
		if k.Current() == want {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("current key %d, want %d", k.Current(), want)
}
