package battleship

import "testing"

// BenchmarkSolo plays one solo game per iteration of each density shooter
// against random placement on the classic rules. The target is 10,000
// games/s on one core for bob and over9000.
func BenchmarkSolo(b *testing.B) {
	g := mustGeometry(b, Classic())
	for _, tc := range []struct {
		name  string
		build func(*Geometry) (*densityShooter, error)
	}{
		{"bob", bobShooter},
		{"over9000", over9000Shooter},
		{"tuned", func(g *Geometry) (*densityShooter, error) {
			return tunedShooter(g, tunedSchema(g.Rules).Defaults())
		}},
	} {
		s, err := tc.build(g)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			shots, seed := 0, uint64(0)
			for b.Loop() {
				shots += g.Solo(s, randomPlacer{}, seed)
				seed++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(float64(shots)/float64(b.N), "shots/game")
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(shots), "ns/shot")
		})
	}
}
