package tomlpos_test

import (
	"errors"
	"testing"

	"solidarity"
	"solidarity/internal/tomlpos"
)

func TestLocator(t *testing.T) {
	src := []byte(`# comment
title = "x"
[operations]
return_rate = 0.2   # a comment
[operations.border_capacity]
"IT" = 1500
[[arrival]]
month = "2026-01"
[[arrival]]
month = "2026-02"
`)
	l := tomlpos.New(src)
	for path, want := range map[string]int{
		"title": 2, "operations": 3, "operations.return_rate": 4, "operations.border_capacity.IT": 6,
		"arrival[0].month": 8, "arrival[1].month": 10, "nosuch": 0,
	} {
		if got := l.Line(path); got != want {
			t.Errorf("Line(%q) = %d, want %d", path, got, want)
		}
	}
	if got := l.Nth("arrival.month", 1); got != 10 {
		t.Errorf("Nth(arrival.month, 1) = %d, want 10", got)
	}
}

func TestDecode(t *testing.T) {
	var v struct {
		Title string `toml:"title"`
		Ops   struct {
			Rate float64 `toml:"rate"`
		} `toml:"ops"`
	}
	for _, tc := range []struct {
		src   string
		line  int
		field string
	}{
		{"title = \"a\"\n[ops]\nrat = 1\n", 3, "ops.rat"},
		{"title = \"a\"\ntitle = \"b\"\n", 2, ""},
		{"title = 3\n", 1, ""},
	} {
		_, err := tomlpos.Decode("f.toml", []byte(tc.src), &v, "docs/x.md")
		var e *solidarity.Error
		if !errors.As(err, &e) || e.File != "f.toml" || e.Line != tc.line || tc.field != "" && e.Field != tc.field {
			t.Errorf("%q: %v (line %d field %q), want line %d field %q", tc.src, err, e.Line, e.Field, tc.line, tc.field)
		}
	}
	if _, err := tomlpos.Decode("f.toml", []byte("title = \"a\"\n[ops]\nrate = 0.5\n"), &v, "docs/x.md"); err != nil || v.Ops.Rate != 0.5 {
		t.Errorf("%v %+v", err, v)
	}
}
