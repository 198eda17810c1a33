package s3

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/state/backend"
)

// Backend is a configured s3 backend.
type Backend struct {
	cfg Config
	s3  *s3.Client
}

var _ backend.Backend = (*Backend)(nil)

// New resolves credentials and builds the S3 client; the bucket is first
// contacted by the first operation.
func New(ctx context.Context, cfg Config) (*Backend, hcl.Diagnostics) {
	opts := []func(*awsconfig.LoadOptions) error{
		awsconfig.WithRegion(cfg.Region),
		awsconfig.WithRetryMaxAttempts(cfg.MaxRetries + 1),
	}
	if cfg.Profile != "" {
		opts = append(opts, awsconfig.WithSharedConfigProfile(cfg.Profile))
	}
	if len(cfg.SharedCredentialsFiles) > 0 {
		opts = append(opts, awsconfig.WithSharedCredentialsFiles(cfg.SharedCredentialsFiles))
	}
	if len(cfg.SharedConfigFiles) > 0 {
		opts = append(opts, awsconfig.WithSharedConfigFiles(cfg.SharedConfigFiles))
	}
	if cfg.AccessKey != "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(cfg.AccessKey, cfg.SecretKey, cfg.Token)))
	}
	if cfg.SkipMetadataAPICheck {
		opts = append(opts, awsconfig.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, backend.Errorf("Cannot load AWS configuration",
			"Loading the AWS configuration for the s3 backend failed: %s. Check profile, shared_credentials_files, shared_config_files and the AWS_* environment variables.", err)
	}
	if !cfg.SkipCredentialsValidation {
		// Resolving the chain catches "no credentials anywhere" now;
		// wrong ones are reported by the first request, since
		// S3-compatible servers have no STS to ask.
		if _, err := awsCfg.Credentials.Retrieve(ctx); err != nil {
			return nil, backend.Errorf("No AWS credentials for the s3 backend",
				"No credentials were found: %s. Set access_key and secret_key, a profile, shared_credentials_files, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.", err)
		}
	}
	client := s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
		o.UsePathStyle = cfg.UsePathStyle
		if cfg.SkipS3Checksum {
			// Some S3-compatible servers reject the SDK's default
			// checksums.
			o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
			o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		}
	})
	return &Backend{cfg: cfg, s3: client}, nil
}

// Close does nothing: the SDK's client holds no resources to release.
func (b *Backend) Close() error { return nil }

// objectKey is where a workspace's state lives.
func (b *Backend) objectKey(workspace string) string {
	if workspace == backend.DefaultWorkspace {
		return b.cfg.Key
	}
	return path.Join(b.cfg.WorkspaceKeyPrefix, workspace, b.cfg.Key)
}

// workspaceOf is the workspace whose state is at key, or "" when key is
// not a workspace state: <prefix>/<workspace>/<key> exactly.
func (b *Backend) workspaceOf(key string) string {
	rest := key
	if p := b.cfg.WorkspaceKeyPrefix; p != "" {
		var ok bool
		if rest, ok = strings.CutPrefix(key, p+"/"); !ok {
			return ""
		}
	}
	ws, name, ok := strings.Cut(rest, "/")
	if !ok || ws == "" || name != b.cfg.Key {
		return ""
	}
	return ws
}

// Workspaces lists default and every workspace with a state object.
func (b *Backend) Workspaces(ctx context.Context) ([]string, hcl.Diagnostics) {
	prefix := ""
	if b.cfg.WorkspaceKeyPrefix != "" {
		prefix = b.cfg.WorkspaceKeyPrefix + "/"
	}
	var names []string
	pages := s3.NewListObjectsV2Paginator(b.s3, &s3.ListObjectsV2Input{Bucket: aws.String(b.cfg.Bucket), Prefix: aws.String(prefix)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, b.apiDiags("Listing workspaces", "s3://"+b.cfg.Bucket+"/"+prefix, err)
		}
		for _, o := range page.Contents {
			if ws := b.workspaceOf(aws.ToString(o.Key)); ws != "" && ws != backend.DefaultWorkspace {
				names = append(names, ws)
			}
		}
	}
	sort.Strings(names)
	return append([]string{backend.DefaultWorkspace}, names...), nil
}

// Client returns the state object of one workspace.
func (b *Backend) Client(_ context.Context, workspace string) (backend.Client, hcl.Diagnostics) {
	if diags := backend.ValidWorkspaceName(workspace); diags.HasErrors() {
		return nil, diags
	}
	return &client{b: b, key: b.objectKey(workspace)}, nil
}

// CreateWorkspace stores an empty state for a new workspace.
func (b *Backend) CreateWorkspace(ctx context.Context, name string) hcl.Diagnostics {
	return backend.CreateWorkspace(ctx, b, name)
}

// DeleteWorkspace deletes a workspace's state object.
func (b *Backend) DeleteWorkspace(ctx context.Context, name string, force bool) hcl.Diagnostics {
	return backend.DeleteWorkspace(ctx, b, name, force)
}

// apiDiags explains a failed S3 call on the object at where.
func (b *Backend) apiDiags(what, where string, err error) hcl.Diagnostics {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode() {
		case "NoSuchBucket":
			return backend.Errorf("S3 bucket does not exist",
				"%s at %s failed: the bucket %q does not exist. Create it first (tenet does not create buckets), or fix bucket in the backend settings.", what, where, b.cfg.Bucket)
		case "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken", "InvalidClientTokenId", "XAdminUserNotFound":
			return backend.Errorf("S3 refused the credentials",
				"%s at %s failed: %s (%s). Check access_key and secret_key (or the profile, shared files, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) and, for temporary credentials, token.", what, where, apiErr.ErrorMessage(), apiErr.ErrorCode())
		case "AccessDenied", "Forbidden":
			return backend.Errorf("S3 denied access",
				"%s at %s failed: access denied. Grant the credentials s3:ListBucket on the bucket and s3:GetObject, s3:PutObject and s3:DeleteObject on the state and lock objects.", what, where)
		}
		// Servers name credential failures in their own ways; a 403
		// is always about credentials or permissions.
		var respErr interface{ HTTPStatusCode() int }
		if errors.As(err, &respErr) && respErr.HTTPStatusCode() == http.StatusForbidden {
			return backend.Errorf("S3 refused the credentials",
				"%s at %s failed: %s (%s). Check access_key and secret_key (or the profile, shared files, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), and that they may read and write the bucket.", what, where, apiErr.ErrorMessage(), apiErr.ErrorCode())
		}
		return backend.Errorf("S3 error", "%s at %s failed: %s (%s).", what, where, apiErr.ErrorMessage(), apiErr.ErrorCode())
	}
	var netErr net.Error
	if errors.As(err, &netErr) || strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "no such host") {
		endpoint := b.cfg.Endpoint
		if endpoint == "" {
			endpoint = "the AWS endpoint for region " + b.cfg.Region
		}
		return backend.Errorf("Cannot reach S3",
			"%s at %s failed: %s. Check that %s is reachable (endpoints.s3, use_path_style, region) and try again.", what, where, err, endpoint)
	}
	return backend.Errorf("S3 error", "%s at %s failed: %s.", what, where, err)
}

func (b *Backend) url(key string) string { return fmt.Sprintf("s3://%s/%s", b.cfg.Bucket, key) }
