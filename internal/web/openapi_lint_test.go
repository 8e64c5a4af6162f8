package web_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"solidarity/internal/web"
)

// The document must load in every OpenAPI tool, not only in the Go one these tests
// use: js-yaml-based tools refuse YAML merge keys, OpenAPI 3.0.3 lets null through only
// where nullable stands beside a type, and an operation the public may call says so
// with an empty security requirement.

var mergeKey = regexp.MustCompile(`(?m)^\s*(- )?<<\s*:`)

// lintMergeKeys lists the lines of src that use a YAML merge key.
func lintMergeKeys(src []byte) []string {
	var out []string
	for i, l := range strings.Split(string(src), "\n") {
		if mergeKey.MatchString(l) {
			out = append(out, fmt.Sprintf("line %d: YAML merge key: %s", i+1, strings.TrimSpace(l)))
		}
	}
	return out
}

// lintNullable lists the schemas of doc, wherever they stand, that are nullable
// without a type.
func lintNullable(doc *openapi3.T) []string {
	var out []string
	seen := map[*openapi3.Schema]bool{}
	var walk func(where string, r *openapi3.SchemaRef)
	walk = func(where string, r *openapi3.SchemaRef) {
		if r == nil || r.Value == nil || seen[r.Value] {
			return
		}
		s := r.Value
		seen[s] = true
		if s.Nullable && (s.Type == nil || len(*s.Type) == 0) {
			out = append(out, where+": nullable without type")
		}
		for name, p := range s.Properties {
			walk(where+"."+name, p)
		}
		walk(where+"[]", s.Items)
		for i, l := range [][]*openapi3.SchemaRef{s.AllOf, s.OneOf, s.AnyOf} {
			for j, x := range l {
				walk(fmt.Sprintf("%s/%s%d", where, [...]string{"allOf", "oneOf", "anyOf"}[i], j), x)
			}
		}
		walk(where+"/not", s.Not)
		walk(where+"/additionalProperties", s.AdditionalProperties.Schema)
	}
	content := func(where string, c openapi3.Content) {
		for mt, m := range c {
			walk(where+" "+mt, m.Schema)
		}
	}
	for name, s := range doc.Components.Schemas {
		walk("#/components/schemas/"+name, s)
	}
	for name, p := range doc.Components.Parameters {
		walk("#/components/parameters/"+name, p.Value.Schema)
	}
	for name, r := range doc.Components.Responses {
		content("#/components/responses/"+name, r.Value.Content)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			where := method + " " + path
			for _, p := range op.Parameters {
				walk(where+" parameter "+p.Value.Name, p.Value.Schema)
			}
			if op.RequestBody != nil {
				content(where+" request", op.RequestBody.Value.Content)
			}
			for code, r := range op.Responses.Map() {
				content(where+" "+code, r.Value.Content)
				for h, hr := range r.Value.Headers {
					walk(where+" "+code+" header "+h, hr.Value.Schema)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// anonymous reports whether op names the public among who may call it: an empty
// security list, or an empty requirement among others (the login is optional).
func anonymous(op *openapi3.Operation) bool {
	if op.Security == nil {
		return false
	}
	if len(*op.Security) == 0 {
		return true
	}
	return slices.ContainsFunc(*op.Security, func(r openapi3.SecurityRequirement) bool { return len(r) == 0 })
}

func loadDoc(t *testing.T, src string) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestOpenAPIPortable(t *testing.T) {
	if errs := lintMergeKeys(web.OpenAPI()); len(errs) > 0 {
		t.Errorf("openapi.yaml:\n%s", strings.Join(errs, "\n"))
	}
	doc, _ := MustOpenAPI(t)
	if errs := lintNullable(doc); len(errs) > 0 {
		t.Errorf("openapi.yaml:\n%s", strings.Join(errs, "\n"))
	}
}

// TestOpenAPILints shows that the lints catch what they are for.
func TestOpenAPILints(t *testing.T) {
	const bad = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /x:
    get:
      security: []
      responses:
        "200":
          description: x
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/B"
components:
  schemas:
    A:
      type: object
      properties: &a
        n: {type: integer}
    B:
      type: object
      properties:
        <<: *a
        p:
          nullable: true
          allOf: [{$ref: "#/components/schemas/A"}]
`
	if got := lintMergeKeys([]byte(bad)); len(got) != 1 || !strings.HasPrefix(got[0], "line 23:") {
		t.Errorf("merge keys: %q", got)
	}
	doc := loadDoc(t, strings.Replace(bad, "<<: *a", "m: {type: string}", 1))
	if got := lintNullable(doc); len(got) != 1 || got[0] != "#/components/schemas/B.p: nullable without type" {
		t.Errorf("nullable: %q", got)
	}
	op := doc.Paths.Find("/x").Get
	if !anonymous(op) {
		t.Error("security: [] is not public")
	}
	op.Security = nil
	if anonymous(op) {
		t.Error("no security is public")
	}
	op.Security = &openapi3.SecurityRequirements{{}, {"bearerAuth": {}}}
	if !anonymous(op) {
		t.Error("an optional login is not public")
	}
}

// TestPublicOperationsSecurity asks the server, not a list, which operations the
// public may call: every documented operation is requested without credentials on a
// server with a ledger and the case flow, and one that does not answer 401 must carry
// security: [] (or an empty requirement beside the logins); one that does must not.
func TestPublicOperationsSecurity(t *testing.T) {
	doc, _ := MustOpenAPI(t)
	f := newFixture(t, fixtureOpts{setup: true, cases: true})
	fill := strings.NewReplacer("{year}", "2027", "{state}", "DE", "{ref}", "DED-2027-DE-1", "{id}", "x", "{name}", "fr")
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			req, err := http.NewRequestWithContext(context.Background(), method, f.ts.URL+fill.Replace(path), nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			public := res.StatusCode != http.StatusUnauthorized
			if public != anonymous(op) {
				t.Errorf("%s %s: anonymous request answers %d, but the document says public=%v", method, path, res.StatusCode, anonymous(op))
			}
		}
	}
}
