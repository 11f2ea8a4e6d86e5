module github.com/evotune/evotune

go 1.26

require (
	github.com/MaxHalford/eaopt v0.4.2
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
	golang.org/x/term v0.44.0
	gonum.org/v1/gonum v0.17.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/sync v0.12.0 // indirect
	golang.org/x/sys v0.46.0 // indirect
	golang.org/x/tools v0.30.0 // indirect
)
