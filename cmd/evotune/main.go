// Command evotune evolves the parameters of game-playing strategies, and
// evaluates and plays the results. Run `evotune help` for the commands.
package main

import "os"

func main() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }
