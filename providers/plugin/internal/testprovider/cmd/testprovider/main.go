// Command testprovider is the plugin the providers/plugin tests launch.
package main

import "github.com/tenetplan/tenet/providers/plugin/internal/testprovider"

func main() { testprovider.Main() }
