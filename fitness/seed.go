package fitness

import "math/rand/v2"

// Mix is the splitmix64 finaliser: a bijection on uint64 that spreads every
// input bit over the output, so neighbouring inputs give unrelated outputs.
func Mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Derive returns the seed of a sub-stream named by parts, e.g.
// Derive(runSeed, generation, purpose, index). Order matters: (1, 2) and
// (2, 1) name different streams. Deriving instead of drawing means no
// generator state has to be saved or shared between goroutines.
func Derive(seed uint64, parts ...uint64) uint64 {
	h := Mix(seed)
	for _, p := range parts {
		h = Mix(h ^ Mix(p+0x632be59bd9b4e019))
	}
	return h
}

// NewRand returns a PCG generator seeded from seed.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, Mix(seed^0xda942042e4dd58b5)))
}
