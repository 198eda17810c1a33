package s3

import (
	"regexp"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/state/backend"
)

// Config is the s3 backend's settings with OpenTofu's names and defaults.
type Config struct {
	Bucket             string
	Key                string
	Region             string
	Endpoint           string // endpoints.s3, or the deprecated endpoint
	UsePathStyle       bool
	WorkspaceKeyPrefix string

	AccessKey, SecretKey, Token string
	Profile                     string
	SharedCredentialsFiles      []string
	SharedConfigFiles           []string

	SkipCredentialsValidation bool
	SkipRegionValidation      bool
	SkipRequestingAccountID   bool
	SkipMetadataAPICheck      bool
	SkipS3Checksum            bool
	MaxRetries                int

	UseLockfile bool
	Encrypt     bool
	KMSKeyID    string
	ACL         string
}

// unsupported are OpenTofu s3 settings tenet does not implement yet; each
// is refused with a diagnostic rather than silently ignored.
var unsupported = []string{
	"dynamodb_table", "dynamodb_endpoint", "sse_customer_key", "role_arn", "session_name", "external_id",
	"assume_role_duration_seconds", "assume_role_policy", "assume_role_policy_arns", "assume_role_tags",
	"assume_role_transitive_tag_keys", "assume_role", "assume_role_with_web_identity", "iam_endpoint",
	"sts_endpoint", "sts_region", "retry_mode", "custom_ca_bundle", "ec2_metadata_service_endpoint",
	"ec2_metadata_service_endpoint_mode", "forbidden_account_ids", "allowed_account_ids", "http_proxy",
	"https_proxy", "no_proxy", "insecure", "use_dualstack_endpoint", "use_fips_endpoint",
}

// ConfigFrom reads a Config from backend settings and the environment.
func ConfigFrom(s *backend.Settings) (Config, hcl.Diagnostics) {
	c := Config{
		Bucket:                    s.String("bucket", ""),
		Key:                       s.String("key", ""),
		Region:                    s.String("region", "", "AWS_REGION", "AWS_DEFAULT_REGION"),
		UsePathStyle:              s.Bool("use_path_style", false) || s.Bool("force_path_style", false),
		WorkspaceKeyPrefix:        s.String("workspace_key_prefix", "env:"),
		AccessKey:                 s.String("access_key", ""),
		SecretKey:                 s.String("secret_key", ""),
		Token:                     s.String("token", ""),
		Profile:                   s.String("profile", "", "AWS_PROFILE"),
		SharedCredentialsFiles:    s.Strings("shared_credentials_files"),
		SharedConfigFiles:         s.Strings("shared_config_files"),
		SkipCredentialsValidation: s.Bool("skip_credentials_validation", false),
		SkipRegionValidation:      s.Bool("skip_region_validation", false),
		SkipRequestingAccountID:   s.Bool("skip_requesting_account_id", false),
		SkipMetadataAPICheck:      s.Bool("skip_metadata_api_check", false, "AWS_EC2_METADATA_DISABLED"),
		SkipS3Checksum:            s.Bool("skip_s3_checksum", false),
		MaxRetries:                s.Int("max_retries", 5, "AWS_MAX_ATTEMPTS"),
		UseLockfile:               s.Bool("use_lockfile", false),
		Encrypt:                   s.Bool("encrypt", false),
		KMSKeyID:                  s.String("kms_key_id", ""),
		ACL:                       s.String("acl", ""),
	}
	var diags hcl.Diagnostics
	if f := s.String("shared_credentials_file", ""); f != "" {
		c.SharedCredentialsFiles = append(c.SharedCredentialsFiles, f)
		diags = append(diags, warning("Deprecated s3 backend argument", "shared_credentials_file is deprecated; use shared_credentials_files = [...] instead."))
	}
	if ep := s.StringMap("endpoints"); ep["s3"] != "" {
		c.Endpoint = ep["s3"]
	}
	if old := s.String("endpoint", "", "AWS_S3_ENDPOINT"); old != "" {
		if c.Endpoint == "" {
			c.Endpoint = old
		}
		diags = append(diags, warning("Deprecated s3 backend argument", "endpoint (and AWS_S3_ENDPOINT) is deprecated; use endpoints = { s3 = \"...\" } (or AWS_ENDPOINT_URL_S3) instead."))
	}
	if c.Endpoint == "" {
		c.Endpoint = s.Getenv("AWS_ENDPOINT_URL_S3")
	}
	if s.Has("dynamodb_table") {
		diags = append(diags, backend.Error("DynamoDB locking is not supported",
			"tenet locks s3 state with a lock object next to the state, not with DynamoDB. Remove dynamodb_table and set use_lockfile = true; OpenTofu 1.10 uses the same lock object, so both tools still exclude each other when both use it.")...)
	}
	for _, name := range unsupported {
		if name != "dynamodb_table" && s.Has(name) {
			diags = append(diags, backend.Errorf("Unsupported s3 backend argument",
				"tenet does not support the s3 backend argument %q yet. Remove it; for credentials, use access_key/secret_key, a profile, shared files or the AWS_* environment variables.", name)...)
		}
	}
	diags = append(diags, s.Check("s3")...)

	if c.Bucket == "" {
		diags = append(diags, backend.Error("Missing s3 backend bucket", "Set bucket to the name of the S3 bucket that holds the state.")...)
	}
	if c.Key == "" {
		diags = append(diags, backend.Error("Missing s3 backend key", "Set key to the object name of the state, such as \"network/terraform.tfstate\".")...)
	} else if strings.HasPrefix(c.Key, "/") || strings.HasSuffix(c.Key, "/") {
		diags = append(diags, backend.Errorf("Invalid s3 backend key", "key %q must not start or end with \"/\".", c.Key)...)
	}
	if strings.HasPrefix(c.WorkspaceKeyPrefix, "/") {
		diags = append(diags, backend.Errorf("Invalid s3 backend workspace_key_prefix", "workspace_key_prefix %q must not start with \"/\".", c.WorkspaceKeyPrefix)...)
	}
	if c.Region == "" {
		diags = append(diags, backend.Error("Missing s3 backend region", "Set region (or AWS_REGION / AWS_DEFAULT_REGION). S3-compatible servers usually accept \"us-east-1\".")...)
	}
	if c.Region != "" && !c.SkipRegionValidation && c.Endpoint == "" && !awsRegion().MatchString(c.Region) {
		diags = append(diags, backend.Errorf("Invalid s3 backend region",
			"%q does not look like an AWS region (such as eu-west-1). Fix it, or set skip_region_validation = true for a server with its own region names.", c.Region)...)
	}
	if (c.AccessKey == "") != (c.SecretKey == "") {
		diags = append(diags, backend.Error("Incomplete s3 backend credentials", "Set both access_key and secret_key, or neither to use the environment, shared files or a profile.")...)
	}
	return c, diags
}

func warning(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail}
}

// awsRegion is compiled on first use, not at start-up of every command.
var awsRegion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-[0-9]+$`) })
