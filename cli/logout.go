package cli

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
)

func newLogoutCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "logout HOSTNAME",
		Short: "Remove the saved API token of a host",
		Long: "Removes the token login saved for HOSTNAME from ~/.terraform.d/credentials.tfrc.json.\n" +
			"The token is only forgotten here: it stays valid on the host until you revoke it there.",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, true, false)
			if err := oneHostname(cmd, g, args, "log out of"); err != nil {
				return err
			}
			if diags := logout(g, u, args[0]); diags.HasErrors() {
				return u.fail(diags)
			}
			return nil
		},
	}
	return cmd
}

func logout(g *globals, u *ui, arg string) hcl.Diagnostics {
	host, diags := parseLoginHost(arg)
	if diags.HasErrors() {
		return diags
	}
	path := credentialsPath(g.deps.Env)
	if diags := credentialsGuard(g, "logout", host, path); diags.HasErrors() {
		return diags
	}
	f, err := readCredentialsFile(path)
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the saved credentials", Detail: fmt.Sprintf("%s. Fix or remove the file, then log out again.", err)}}
	}
	// A TF_TOKEN_ variable is not stored anywhere logout could remove
	// it from; like OpenTofu, logout looks only at the file.
	if !f.remove(host) {
		fmt.Fprintf(u.out, "No credentials for %s are stored.\n\n", host)
		return nil
	}
	fmt.Fprintf(u.out, "Removing the stored credentials for %s from this file:\n    %s\n\n", host, path)
	if err := f.write(); err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot remove the saved token", Detail: fmt.Sprintf("Writing %s failed: %s. The token is still saved there.", path, err)}}
	}
	fmt.Fprintf(u.out, "Success! tenet has removed the stored API token for %s.\n\n", host)
	return nil
}
