package spsa_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/evotune/evotune/internal/spsa"
)

// An SPSA run on two genes whose value is best at (0.3, 0.7). Each
// iteration plays Plus against Minus; here the "games" are the value
// difference plus noise. The recommendation is theta, the mean.
func Example() {
	value := func(x []float64) float64 {
		return -(x[0]-0.3)*(x[0]-0.3) - (x[1]-0.7)*(x[1]-0.7)
	}
	sched := spsa.NewSchedule(2, 2000, 0.05, 1)
	st, err := spsa.New([]float64{0.5, 0.5}, sched)
	if err != nil {
		fmt.Println(err)
		return
	}
	rng := rand.New(rand.NewPCG(1, 2)) // every draw comes from the caller's seed
	for st.K() < sched.Pairs {
		p := st.Perturb(st.K(), spsa.Continuous{}, rng)
		y := value(p.Plus) - value(p.Minus) + 0.002*rng.NormFloat64()
		if err := st.Update(p, spsa.Result{Pairs: 1, Sum: y}); err != nil {
			fmt.Println(err)
			return
		}
	}
	theta := st.Theta()
	fmt.Printf("after %d pairs theta = (%.2f, %.2f)\n", st.K(), theta[0], theta[1])

	// A checkpoint is the state's JSON; read back, it continues exactly.
	data, _ := json.Marshal(st)
	var back spsa.State
	if err := json.Unmarshal(data, &back); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("resumed at", back.K(), "pairs, same theta:", back.Theta()[0] == theta[0])
	// Output:
	// after 2000 pairs theta = (0.30, 0.70)
	// resumed at 2000 pairs, same theta: true
}

// fishtest's autoselect for one parameter at its short time control:
// results are games of W-L, 0.5 Elo of precision, 2 Elo across the
// parameter's interval, a "virtual" draw ratio of 0.739.
func ExampleAutoselect() {
	c := 800 / math.Ln10 // W-L per game per Elo, near equality
	plan, err := spsa.Autoselect(spsa.Target{Genes: 1, Precision: 0.5 / c, EdgeLoss: 2 / c, Variance: 1 - 0.739})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d games, c_end %.4f of the range, r_end %.5f\n",
		plan.Schedule.Pairs, plan.Schedule.CEnd[0], plan.Schedule.REnd[0])
	// Output:
	// 102117 games, c_end 0.1667 of the range, r_end 0.01148
}
