// Package registryhttp is the one HTTP client that talks to registries:
// the provider registry and network mirror protocols (providers/getproviders)
// and the module registry protocol and module archive downloads
// (config/modinstall) all send their requests through a [Client], and so
// do the CLI's login and logout (login.v1 discovery, the OAuth token
// request).
//
// It owns what those protocols share: service discovery
// (https://HOST/.well-known/terraform.json, or the answer a host block of
// the CLI configuration forces), the normalised hostname that keys
// discovery answers and credentials, attaching bearer tokens, and reading
// bounded JSON answers. Its policy for tokens is that they travel only
// over https: a request to a plain http URL never carries one, whatever
// the configuration says.
//
// What the protocols mean (version lists, download answers, checksums) is
// left to the packages that speak them; where tokens and host blocks come
// from (credentials blocks, TF_TOKEN_<host> variables) is
// providers/cliconfig's, which hands them over as a lookup function and a
// map.
//
// Hostnames are normalised with github.com/hashicorp/terraform-svchost's
// ForComparison, the rules OpenTofu itself applies (case folding, IDNA,
// default port), so a host written differently in a source address, a
// host block and a TF_TOKEN_ variable is still the same host. Its disco
// package is not used: it cannot be cancelled through a context, and it
// would bring golang.org/x/oauth2 into the build where the login command's
// one OAuth exchange (cli) needs only a form POST.
package registryhttp
