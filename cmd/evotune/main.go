// Command evotune evolves the parameters of game-playing strategies, and
// evaluates and plays the results. Run `evotune help` for the commands;
// the commands live in package cli, which a Go module with games of its
// own can call from a main of its own.
package main

import "github.com/evotune/evotune/cmd/evotune/cli"

func main() { cli.Run() }
