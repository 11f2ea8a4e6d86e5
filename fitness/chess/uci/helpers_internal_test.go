package uci

import "github.com/evotune/evotune/fitness/chess"

var chessClock = chess.Clock{Time: [2]int64{9000, 8000}, Inc: [2]int64{100, 100}, MovesToGo: 12}
