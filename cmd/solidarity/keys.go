package main

import (
	"context"
	"fmt"
	"io"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/keyring"
)

// runKeys is `keys new` (a new key line for the key file; it opens nothing) and
// `keys reseal` (re-encrypt the personal records sealed with an older key).
func runKeys(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	switch {
	case len(args) > 0 && (args[0] == "-h" || args[0] == "--help"):
		fmt.Fprint(stdout, casesHelp)
		return nil
	case len(args) > 0 && args[0] == "new":
		return runKeysNew(args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "reseal":
		return runKeysReseal(ctx, args[1:], stdout, stderr)
	}
	return &solidarity.Error{Code: solidarity.EINVALID, Message: "keys: want new or reseal"}
}

func runKeysNew(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("keys new", casesHelp, stdout, stderr)
	keyID := fs.Uint("id", 1, "`id` of the new key")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	if *keyID == 0 || *keyID > 1<<31 {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--id", Message: "want a positive key id"}
	}
	fmt.Fprintln(stdout, keyring.NewKey(uint32(*keyID)))
	return nil
}

func runKeysReseal(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := newCaseFlags("keys reseal", stdout, stderr)
	if err := parse(fs, args, false); err != nil {
		return err
	}
	svc, uctx, done, err := t.cases(ctx, "keys", app.Existing)
	if err != nil {
		return err
	}
	defer done()
	r, err := svc.Reseal(uctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "resealed %d personal records with key %d (ledger entries %v)\n", len(r.Cases), r.Key, r.Entries)
	return nil
}
