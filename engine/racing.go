package engine

import (
	"gopkg.in/yaml.v3"
)

// RacingConfig plays a generation's games against fixed opponents
// (baselines and hall of fame) in Rounds rounds over common deals, and
// after each round stops scheduling games for the individuals that,
// at the given Confidence, cannot reach the set the model keeps.
type RacingConfig struct {
	Rounds     int     `json:"rounds"`
	Confidence float64 `json:"confidence"`
}

func defaultRacing() RacingConfig { return RacingConfig{Rounds: 5, Confidence: 0.95} }

func (c *Config) decodeRacing(d *decoder) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		rc := defaultRacing()
		c.Racing = &rc
		d.decodeMap(n, path, []field{
			{"rounds", d.integer(&rc.Rounds)},
			{"confidence", d.number(&rc.Confidence)},
		})
	}
}

func (c *Config) checkRacing(bad func(key, format string, args ...any)) {
	rc := c.Racing
	if rc == nil {
		return
	}
	if rc.Rounds < 2 || rc.Rounds > 100 {
		bad("racing.rounds", "%d: want from 2 to 100", rc.Rounds)
	}
	if !(rc.Confidence >= 0.5 && rc.Confidence < 1) {
		bad("racing.confidence", "%v: want a probability in [0.5, 1)", rc.Confidence)
	}
}
