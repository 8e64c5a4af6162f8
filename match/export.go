package match

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// The exporters write a Model for an external MIP solver (Debian's coinor-cbc in our
// cross-checks). Names are by index: variable x_<family>_<place>; rows
//
//	assign_<f>        Σ_p x[f,p] ≤ 1 (= 1 when the family must be placed)
//	cap_<p>_<d>       Σ_f need[f,d] x[f,p] ≤ cap[p,d]
//	group_<g>_<d>     Σ_f need[f,d] Σ_{p∈G} x[f,p] ≤ cap[G,d]
//	min_<r>           Σ_f size[f] Σ_{p∈R} x[f,p] ≥ min[R]   (size: the need in Dim, or summed)
//
// A row without variables is left out when it holds whatever the solution (a capacity,
// an optional family), and written when it cannot hold (a family that must be placed
// but has no arc, a positive minimum over no arc), so that the solver reports the
// model infeasible as Solve does.

// term is one coefficient of a row.
type term struct {
	v    int // variable number (position in the column order)
	coef int64
}

// row is one constraint: Σ terms sense rhs, sense one of 'L', 'E', 'G'.
type row struct {
	name  string
	terms []term
	sense byte
	rhs   int64
}

// lpModel is a Model flattened into columns and rows, shared by both formats.
type lpModel struct {
	names []string  // column names
	obj   []float64 // column objective coefficients
	rows  []row
}

func flatten(m *Model) (*lpModel, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	lp := &lpModel{}
	col := make([][]int, len(m.Families))      // col[f][j]: column of arc j
	byPlace := make([][][2]int, len(m.Places)) // (family, column) of each arc into place p
	for f, fam := range m.Families {
		col[f] = make([]int, len(fam.Arcs))
		for j, a := range fam.Arcs {
			col[f][j] = len(lp.names)
			lp.names = append(lp.names, "x_"+strconv.Itoa(f)+"_"+strconv.Itoa(a.Place))
			lp.obj = append(lp.obj, a.Score)
			byPlace[a.Place] = append(byPlace[a.Place], [2]int{f, col[f][j]})
		}
	}
	for f, fam := range m.Families {
		r := row{name: "assign_" + strconv.Itoa(f), sense: 'L', rhs: 1}
		if fam.Must {
			r.sense = 'E'
		}
		for j := range fam.Arcs {
			r.terms = append(r.terms, term{col[f][j], 1})
		}
		if len(r.terms) > 0 || fam.Must {
			lp.rows = append(lp.rows, r)
		}
	}
	for p := range m.Places {
		for d := range m.Dims {
			r := row{name: fmt.Sprintf("cap_%d_%d", p, d), sense: 'L', rhs: m.Places[p].Cap[d]}
			for _, fc := range byPlace[p] {
				if n := m.Families[fc[0]].Need[d]; n != 0 {
					r.terms = append(r.terms, term{fc[1], n})
				}
			}
			if len(r.terms) > 0 {
				lp.rows = append(lp.rows, r)
			}
		}
	}
	for g, gr := range m.Groups {
		for d := range m.Dims {
			r := row{name: fmt.Sprintf("group_%d_%d", g, d), sense: 'L', rhs: gr.Cap[d]}
			for _, p := range gr.Places {
				for _, fc := range byPlace[p] {
					if n := m.Families[fc[0]].Need[d]; n != 0 {
						r.terms = append(r.terms, term{fc[1], n})
					}
				}
			}
			if len(r.terms) > 0 {
				lp.rows = append(lp.rows, r)
			}
		}
	}
	for i, mr := range m.Mins {
		r := row{name: "min_" + strconv.Itoa(i), sense: 'G', rhs: mr.Min}
		for _, p := range mr.Places {
			for _, fc := range byPlace[p] {
				var n int64
				for d, x := range m.Families[fc[0]].Need {
					if mr.Dim == -1 || mr.Dim == d {
						n += x
					}
				}
				if n != 0 {
					r.terms = append(r.terms, term{fc[1], n})
				}
			}
		}
		if len(r.terms) > 0 || mr.Min > 0 {
			lp.rows = append(lp.rows, r)
		}
	}
	return lp, nil
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// WriteLP writes m in CPLEX LP format as a maximisation with binary variables.
func WriteLP(w io.Writer, m *Model) error {
	lp, err := flatten(m)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "\\ solidarity match model: %d families, %d places, %d dimensions, %d groups, %d minimums\n",
		len(m.Families), len(m.Places), m.Dims, len(m.Groups), len(m.Mins))
	fmt.Fprintf(bw, "\\ %d variables x_<family>_<place>, %d rows\n", len(lp.names), len(lp.rows))
	// A row that cannot hold for want of variables is written over "dummy", fixed at 0.
	dummy := false
	bw.WriteString("Maximize\n obj:")
	n := 0
	for c, s := range lp.obj {
		if s == 0 {
			continue
		}
		if s < 0 {
			bw.WriteString(" - ")
			bw.WriteString(num(-s))
		} else {
			bw.WriteString(" + ")
			bw.WriteString(num(s))
		}
		bw.WriteByte(' ')
		bw.WriteString(lp.names[c])
		if n++; n%8 == 0 {
			bw.WriteString("\n ")
		}
	}
	if n == 0 {
		bw.WriteString(" 0 dummy")
		dummy = true
	}
	bw.WriteString("\nSubject To\n")
	for _, r := range lp.rows {
		fmt.Fprintf(bw, " %s:", r.name)
		for i, t := range r.terms {
			if i > 0 && i%8 == 0 {
				bw.WriteString("\n  ")
			}
			fmt.Fprintf(bw, " + %d %s", t.coef, lp.names[t.v])
		}
		if len(r.terms) == 0 {
			bw.WriteString(" dummy")
			dummy = true
		}
		switch r.sense {
		case 'L':
			bw.WriteString(" <= ")
		case 'E':
			bw.WriteString(" = ")
		case 'G':
			bw.WriteString(" >= ")
		}
		bw.WriteString(strconv.FormatInt(r.rhs, 10))
		bw.WriteByte('\n')
	}
	if dummy {
		bw.WriteString("Bounds\n dummy = 0\n")
	}
	if len(lp.names) > 0 {
		bw.WriteString("Binaries\n")
		for c, name := range lp.names {
			if c > 0 && c%8 == 0 {
				bw.WriteByte('\n')
			}
			bw.WriteByte(' ')
			bw.WriteString(name)
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("End\n")
	return bw.Flush()
}

// WriteMPS writes m in free MPS format with binary columns (between MARKER INTORG and
// INTEND, each with a BV bound). MPS minimises and not every reader knows OBJSENSE, so
// the objective row holds the negated scores: the optimum of the file is minus the
// optimum of m (a comment in the file says so).
func WriteMPS(w io.Writer, m *Model) error {
	lp, err := flatten(m)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "* solidarity match model: %d families, %d places, %d dimensions, %d groups, %d minimums\n",
		len(m.Families), len(m.Places), m.Dims, len(m.Groups), len(m.Mins))
	fmt.Fprintf(bw, "* %d columns x_<family>_<place>, %d rows; objective negated (minimise -score)\n", len(lp.names), len(lp.rows))
	bw.WriteString("NAME solidarity_match\nROWS\n N obj\n")
	entries := make([][]term, len(lp.names)) // by column: (row, coefficient)
	for i, r := range lp.rows {
		fmt.Fprintf(bw, " %c %s\n", r.sense, r.name)
		for _, t := range r.terms {
			entries[t.v] = append(entries[t.v], term{i, t.coef})
		}
	}
	bw.WriteString("COLUMNS\n")
	if len(lp.names) > 0 {
		bw.WriteString(" MARKER 'MARKER' 'INTORG'\n")
	}
	for c, name := range lp.names {
		if s := lp.obj[c]; s != 0 {
			fmt.Fprintf(bw, " %s obj %s\n", name, num(-s))
		}
		for _, e := range entries[c] {
			fmt.Fprintf(bw, " %s %s %d\n", name, lp.rows[e.v].name, e.coef)
		}
		if lp.obj[c] == 0 && len(entries[c]) == 0 {
			fmt.Fprintf(bw, " %s obj 0\n", name)
		}
	}
	if len(lp.names) > 0 {
		bw.WriteString(" MARKER 'MARKER' 'INTEND'\n")
	}
	bw.WriteString("RHS\n")
	for _, r := range lp.rows {
		if r.rhs != 0 {
			fmt.Fprintf(bw, " rhs %s %d\n", r.name, r.rhs)
		}
	}
	bw.WriteString("BOUNDS\n")
	for _, name := range lp.names {
		fmt.Fprintf(bw, " BV bnd %s\n", name)
	}
	bw.WriteString("ENDATA\n")
	return bw.Flush()
}
