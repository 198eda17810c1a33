package funcs

import (
	"fmt"
	"math/big"
	"net"
	"strconv"
	"strings"

	"github.com/apparentlymart/go-cidr/cidr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
)

// parseCIDR accepts what the language always has: IPv4 octets with leading
// zeros are read as decimal ("010.0.0.0/8" is 10.0.0.0/8), which Go's
// parser has refused since Go 1.17.
// prefixArg is the network of the first argument, a CIDR prefix.
func prefixArg(v cty.Value) (*net.IPNet, error) {
	_, network, err := parseCIDR(v.AsString())
	if err != nil {
		return nil, function.NewArgErrorf(0, "invalid CIDR expression: %s", err)
	}
	return network, nil
}

func parseCIDR(s string) (net.IP, *net.IPNet, error) {
	ip, network, err := net.ParseCIDR(s)
	if err == nil {
		return ip, network, nil
	}
	if addr, bits, ok := strings.Cut(s, "/"); ok {
		if fixed, ok := stripOctetZeros(addr); ok {
			if ip, network, err2 := net.ParseCIDR(fixed + "/" + bits); err2 == nil {
				return ip, network, nil
			}
		}
	}
	return nil, nil, err
}

func parseIP(s string) net.IP {
	if ip := net.ParseIP(s); ip != nil {
		return ip
	}
	if fixed, ok := stripOctetZeros(s); ok {
		return net.ParseIP(fixed)
	}
	return nil
}

func stripOctetZeros(addr string) (string, bool) {
	octets := strings.Split(addr, ".")
	if len(octets) != 4 {
		return "", false
	}
	for i, o := range octets {
		n, err := strconv.ParseUint(o, 10, 8)
		if err != nil {
			return "", false
		}
		octets[i] = strconv.FormatUint(n, 10)
	}
	return strings.Join(octets, "."), true
}

// wholeNumberArg is args[i], which must be a whole number.
func wholeNumberArg(args []cty.Value, i int) (*big.Int, error) {
	n, acc := args[i].AsBigFloat().Int(nil)
	if acc != big.Exact {
		return nil, function.NewArgErrorf(i, "must be a whole number")
	}
	return n, nil
}

// withPrefix is the Impl of a function whose first argument is a CIDR
// prefix, which impl gets parsed.
func withPrefix(impl func(network *net.IPNet, args []cty.Value) (cty.Value, error)) function.ImplFunc {
	return func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		network, err := prefixArg(args[0])
		if err != nil {
			return cty.NilVal, err
		}
		return impl(network, args)
	}
}

var cidrHostFunc = function.New(&function.Spec{
	Description: "Returns the IP address of the given host number within a network prefix.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "hostnum", Type: cty.Number},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: withPrefix(func(network *net.IPNet, args []cty.Value) (cty.Value, error) {
		num, err := wholeNumberArg(args, 1)
		if err != nil {
			return cty.NilVal, err
		}
		ip, err := cidr.HostBig(network, num)
		if err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		return cty.StringVal(ip.String()), nil
	}),
})

var cidrNetmaskFunc = function.New(&function.Spec{
	Description:  "Returns the dotted netmask of an IPv4 network prefix.",
	Params:       []function.Parameter{{Name: "prefix", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: withPrefix(func(network *net.IPNet, args []cty.Value) (cty.Value, error) {
		if network.IP.To4() == nil {
			return cty.NilVal, function.NewArgErrorf(0, "IPv6 addresses cannot have a netmask: %s", args[0].AsString())
		}
		return cty.StringVal(net.IP(network.Mask).String()), nil
	}),
})

var cidrSubnetFunc = function.New(&function.Spec{
	Description: "Returns the netnum'th subnet of a prefix extended by newbits bits.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "newbits", Type: cty.Number},
		{Name: "netnum", Type: cty.Number},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: withPrefix(func(network *net.IPNet, args []cty.Value) (cty.Value, error) {
		var newbits int
		if err := gocty.FromCtyValue(args[1], &newbits); err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		num, err := wholeNumberArg(args, 2)
		if err != nil {
			return cty.NilVal, err
		}
		subnet, err := cidr.SubnetBig(network, newbits, num)
		if err != nil {
			return cty.NilVal, function.NewArgError(2, err)
		}
		return cty.StringVal(subnet.String()), nil
	}),
})

// cidrSubnetsFunc allocates consecutive subnets of the given sizes, each
// aligned to its own size, in order.
var cidrSubnetsFunc = function.New(&function.Spec{
	Description:  "Allocates consecutive subnets of a prefix, one per newbits argument.",
	Params:       []function.Parameter{{Name: "prefix", Type: cty.String}},
	VarParam:     &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:         function.StaticReturnType(cty.List(cty.String)),
	RefineResult: refineNotNull,
	Impl: withPrefix(func(network *net.IPNet, args []cty.Value) (cty.Value, error) {
		if len(args) == 1 {
			return cty.ListValEmpty(cty.String), nil
		}
		startLen, maxLen := network.Mask.Size()
		out := make([]cty.Value, 0, len(args)-1)
		var current *net.IPNet
		for i, arg := range args[1:] {
			var newbits int
			if err := gocty.FromCtyValue(arg, &newbits); err != nil {
				return cty.NilVal, function.NewArgError(i+1, err)
			}
			if newbits < 1 {
				return cty.NilVal, function.NewArgErrorf(i+1, "must extend prefix by at least one bit")
			}
			length := startLen + newbits
			if length > maxLen {
				return cty.NilVal, function.NewArgErrorf(i+1, "would extend prefix to %d bits, which is too long for an IPv%d address", length, ipVersion(network))
			}
			if current == nil {
				// Start one subnet before the network so the first
				// NextSubnet lands on its first address.
				current, _ = cidr.PreviousSubnet(network, length)
			}
			next, rollover := cidr.NextSubnet(current, length)
			if rollover || !network.Contains(next.IP) {
				return cty.NilVal, function.NewArgErrorf(i+1, "not enough remaining address space for a subnet with a prefix of %d bits after %s", length, current.String())
			}
			current = next
			out = append(out, cty.StringVal(current.String()))
		}
		return cty.ListVal(out), nil
	}),
})

func ipVersion(network *net.IPNet) int {
	if network.IP.To4() != nil {
		return 4
	}
	return 6
}

// cidrContainsFunc reports whether an address or a whole prefix lies
// inside a network.
var cidrContainsFunc = twoStringFunc("Reports whether an IP address or prefix lies within a network prefix.", "containing_prefix", "contained_ip_or_prefix", cty.Bool, withPrefix(func(container *net.IPNet, args []cty.Value) (cty.Value, error) {
	inner := args[1].AsString()
	var first, last net.IP
	if strings.Contains(inner, "/") {
		_, network, err := parseCIDR(inner)
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(1, "invalid CIDR expression: %s", err)
		}
		first, last = cidr.AddressRange(network)
	} else {
		first = parseIP(inner)
		if first == nil {
			return cty.NilVal, function.NewArgErrorf(1, "invalid IP address: %s", inner)
		}
		last = first
	}
	if (first.To4() == nil) != (container.IP.To4() == nil) {
		return cty.NilVal, fmt.Errorf("address family mismatch: %s vs. %s", args[0].AsString(), inner)
	}
	return cty.BoolVal(container.Contains(first) && container.Contains(last)), nil
}))
