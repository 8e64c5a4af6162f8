package euromap

// Build runs the uncached build, for the benchmark.
var Build = build

// DecodeRings decodes a TopoJSON document and returns, for each geometry of object
// name, its rings as [x, y] pairs (in the document's coordinates, not projected).
func DecodeRings(data []byte, name string) ([][][][2]float64, []string, error) {
	t, err := decodeTopology(data)
	if err != nil {
		return nil, nil, err
	}
	var out [][][][2]float64
	var ids []string
	for _, f := range t.Objects[name] {
		var rings [][][2]float64
		for _, poly := range f.Polygons {
			for _, r := range poly {
				var pts [][2]float64
				for _, p := range ring(t.Arcs, r) {
					pts = append(pts, [2]float64{p.X, p.Y})
				}
				rings = append(rings, pts)
			}
		}
		out = append(out, rings)
		ids = append(ids, f.ID)
	}
	return out, ids, nil
}
