package http

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
)

// isCertError reports whether err is a failure to verify the server.
func isCertError(err error) bool {
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid)
}
