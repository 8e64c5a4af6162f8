package web

import (
	"slices"
	"solidarity/apportion"
	"text/template/parse"

	"solidarity"
)

// The UI's messages, for the catalogue test (internal/i18n): every key a page may ask
// a Locale to translate. They come from three places, all collected here so that a
// key can never be missed:
//   - the templates: the literal of every {{$.L.T "…"}} (templateMessages);
//   - the Go code of this package: the literal of every T("…"), base(r, "…") and
//     msg("…") (the test reads the source);
//   - the domain's tables, whose labels a page translates as data ({{$.L.T .Label}}):
//     messageSources, which a file adds its table to from an init function.

// msg marks a string as a message key where it is written (a table of labels, say)
// and returns it unchanged: it is translated where it is shown.
func msg(s string) string { return s }

// messageSources are the tables whose entries are messages.
var messageSources = []func() []string{
	func() []string { // the apportionment methods' promises, under the dashboard's table
		var out []string
		for _, m := range apportion.Methods() {
			out = append(out, m.Describe())
		}
		return out
	},
	func() []string { // the Member States' names (the map, the tables, the state pages)
		var out []string
		for _, m := range solidarity.MemberStates() {
			out = append(out, m.Name())
		}
		return out
	},
	func() []string { // the roles, shown beside the user's name
		var out []string
		for _, r := range solidarity.Roles() {
			out = append(out, string(r))
		}
		return out
	},
}

// templateMessages returns the literal keys of the T calls in the trees of t: a
// command whose function is a field or chain ending in .T, and whose first argument
// is a string.
func templateMessages(trees []*parse.Tree) []string {
	var out []string
	var walk func(parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n != nil {
				for _, c := range n.Nodes {
					walk(c)
				}
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n == nil {
				return
			}
			for _, c := range n.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			if len(n.Args) >= 2 && isT(n.Args[0]) {
				if s, ok := n.Args[1].(*parse.StringNode); ok {
					out = append(out, s.Text)
				}
			}
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
		}
	}
	for _, t := range trees {
		if t != nil && t.Root != nil {
			walk(t.Root)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func isT(n parse.Node) bool {
	var idents []string
	switch n := n.(type) {
	case *parse.FieldNode:
		idents = n.Ident
	case *parse.VariableNode:
		idents = n.Ident
	case *parse.ChainNode:
		idents = n.Field
	}
	return len(idents) > 0 && idents[len(idents)-1] == "T"
}
