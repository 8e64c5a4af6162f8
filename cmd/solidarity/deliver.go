package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"solidarity"
	"solidarity/internal/app"
)

// deliveryNames lists the names --type takes, from the table of measures:
// "relocation, payment or alternative".
func deliveryNames() string {
	names := strings.Split(deliveryList(","), ",")
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// runDeliver records a delivery against a state's pledges.
func runDeliver(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(stdout, writeHelp)
		return nil
	}
	fs, w := newWrite("deliver", true, stdout, stderr)
	state := stateFlag(fs, "state", "Member `state` (Eurostat code)")
	typ := fs.String("type", "", "delivery `type`")
	relocs := fs.Int64("relocations", 0, "number of `relocations`")
	eur := eurFlag(fs)
	over := fs.Bool("over-delivery", false, "record a delivery beyond the pledge")
	reference := fs.String("reference", "", "transfer or payment `reference`")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	cents, err := eur()
	if err != nil {
		return err
	}
	if err := w.needYear(); err != nil {
		return err
	}
	d, ok := solidarity.DeliveryNamed(*typ)
	if !ok {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--type", Message: "want " + deliveryNames()}
	}
	t := d.Type
	m := state()
	p := solidarity.DeliveryPayload{Relocations: *relocs, EURCents: cents, OverDelivery: *over, Reference: *reference}
	return w.record(ctx, stdout, app.Existing, func(ctx context.Context, l solidarity.LedgerService) (*solidarity.Entry, bool, error) {
		return l.Deliver(ctx, w.year, m, t, p, w.key)
	})
}
