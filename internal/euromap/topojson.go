package euromap

import (
	"encoding/json"
	"errors"
	"fmt"
)

// This file decodes the subset of TopoJSON (topojson-specification 1.0) that
// world-atlas uses: a Topology whose objects are GeometryCollections of Polygon and
// MultiPolygon geometries referring to shared, optionally quantized arcs.

// point is a position: longitude and latitude in degrees before projection,
// metres or SVG user units after.
type point struct{ X, Y float64 }

// topology is a decoded TopoJSON Topology with absolute arc positions.
type topology struct {
	Arcs    [][]point
	Objects map[string][]feature
}

// feature is one geometry of a GeometryCollection. Polygons lists polygons, each a
// list of rings (the first exterior, the rest holes), each a list of arc indices
// where a negative index ^i means arc i reversed.
type feature struct {
	ID       string
	Name     string
	Polygons [][][]int
}

type rawTopology struct {
	Type      string `json:"type"`
	Transform *struct {
		Scale     [2]float64 `json:"scale"`
		Translate [2]float64 `json:"translate"`
	} `json:"transform"`
	Arcs    [][][]float64 `json:"arcs"`
	Objects map[string]struct {
		Type       string        `json:"type"`
		Geometries []rawGeometry `json:"geometries"`
	} `json:"objects"`
}

type rawGeometry struct {
	Type       string          `json:"type"`
	ID         json.RawMessage `json:"id"`
	Arcs       json.RawMessage `json:"arcs"`
	Properties struct {
		Name string `json:"name"`
	} `json:"properties"`
}

// decodeTopology parses a TopoJSON document, resolving the quantization transform
// (delta-encoded arcs) to absolute positions and checking every arc reference.
func decodeTopology(data []byte) (*topology, error) {
	var raw rawTopology
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("topojson: %w", err)
	}
	if raw.Type != "Topology" {
		return nil, fmt.Errorf("topojson: type %q, want Topology", raw.Type)
	}
	t := &topology{Arcs: make([][]point, len(raw.Arcs)), Objects: make(map[string][]feature)}
	for i, arc := range raw.Arcs {
		pts := make([]point, len(arc))
		var x, y float64
		for j, pos := range arc {
			if len(pos) < 2 {
				return nil, fmt.Errorf("topojson: arc %d position %d has %d coordinates", i, j, len(pos))
			}
			if raw.Transform == nil {
				pts[j] = point{pos[0], pos[1]}
				continue
			}
			x += pos[0]
			y += pos[1]
			pts[j] = point{
				x*raw.Transform.Scale[0] + raw.Transform.Translate[0],
				y*raw.Transform.Scale[1] + raw.Transform.Translate[1],
			}
		}
		if len(pts) < 2 {
			return nil, fmt.Errorf("topojson: arc %d has %d positions", i, len(pts))
		}
		t.Arcs[i] = pts
	}
	for name, obj := range raw.Objects {
		if obj.Type != "GeometryCollection" {
			return nil, fmt.Errorf("topojson: object %q: type %q, want GeometryCollection", name, obj.Type)
		}
		features := make([]feature, 0, len(obj.Geometries))
		for i, g := range obj.Geometries {
			f, err := decodeGeometry(g, len(t.Arcs))
			if err != nil {
				return nil, fmt.Errorf("topojson: object %q geometry %d: %w", name, i, err)
			}
			features = append(features, f)
		}
		t.Objects[name] = features
	}
	return t, nil
}

func decodeGeometry(g rawGeometry, nArcs int) (feature, error) {
	f := feature{Name: g.Properties.Name}
	if len(g.ID) > 0 && string(g.ID) != "null" {
		// The specification allows a string or a number; world-atlas writes strings.
		var s string
		if err := json.Unmarshal(g.ID, &s); err != nil {
			var n json.Number
			if err := json.Unmarshal(g.ID, &n); err != nil {
				return f, fmt.Errorf("id %s: neither string nor number", g.ID)
			}
			s = n.String()
		}
		f.ID = s
	}
	switch g.Type {
	case "Polygon":
		var rings [][]int
		if err := json.Unmarshal(g.Arcs, &rings); err != nil {
			return f, fmt.Errorf("polygon arcs: %w", err)
		}
		f.Polygons = [][][]int{rings}
	case "MultiPolygon":
		if err := json.Unmarshal(g.Arcs, &f.Polygons); err != nil {
			return f, fmt.Errorf("multipolygon arcs: %w", err)
		}
	case "", "null":
		// A null geometry (type null) has no shape; keep the feature empty.
	default:
		return f, fmt.Errorf("unsupported geometry type %q", g.Type)
	}
	for _, poly := range f.Polygons {
		for _, ring := range poly {
			if len(ring) == 0 {
				return f, errors.New("empty ring")
			}
			for _, a := range ring {
				if i := arcIndex(a); i >= nArcs {
					return f, fmt.Errorf("arc index %d out of range (%d arcs)", a, nArcs)
				}
			}
		}
	}
	return f, nil
}

// arcIndex returns the arc an index refers to: i itself, or ^i (that is -i-1) for a
// reversed arc.
func arcIndex(i int) int {
	if i < 0 {
		return ^i
	}
	return i
}

// ring concatenates the arcs of one ring, reversing those with negative indices and
// dropping the first position of each arc after the first, which repeats the last
// position of the one before. arcs is indexed like t.Arcs.
func ring(arcs [][]point, indices []int) []point {
	n := 0
	for _, a := range indices {
		n += len(arcs[arcIndex(a)])
	}
	out := make([]point, 0, n)
	for k, a := range indices {
		arc := arcs[arcIndex(a)]
		start := 0
		if k > 0 {
			start = 1
		}
		if a >= 0 {
			out = append(out, arc[start:]...)
			continue
		}
		for j := len(arc) - 1 - start; j >= 0; j-- {
			out = append(out, arc[j])
		}
	}
	return out
}
