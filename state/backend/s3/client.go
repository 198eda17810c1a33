package s3

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/state/backend"
)

// client is one workspace's state object and its lock object.
type client struct {
	b   *Backend
	key string
}

// lockSuffix names the lock object beside the state object.
const lockSuffix = ".tflock"

func (c *client) Where() string { return c.b.url(c.key) }

func (c *client) lockKey() string { return c.key + lockSuffix }

func (c *client) Get(ctx context.Context) ([]byte, hcl.Diagnostics) {
	out, err := c.b.s3.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(c.b.cfg.Bucket), Key: aws.String(c.key)})
	if err != nil {
		var noKey *types.NoSuchKey
		if errors.As(err, &noKey) {
			return nil, nil
		}
		return nil, c.b.apiDiags("Reading the state", c.Where(), err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		return nil, backend.Errorf("Cannot read the state from S3", "Reading %s failed: %s. Try again.", c.Where(), err)
	}
	return data, nil
}

// put writes one object with the settings' encryption, ACL and checksum.
func (c *client) put(ctx context.Context, key string, data []byte, ifNoneMatch bool) error {
	in := &s3.PutObjectInput{
		Bucket:        aws.String(c.b.cfg.Bucket),
		Key:           aws.String(key),
		Body:          bytes.NewReader(data),
		ContentLength: aws.Int64(int64(len(data))),
		ContentType:   aws.String("application/json"),
	}
	if !c.b.cfg.SkipS3Checksum {
		// A checksum computed up front, instead of the SDK's streaming
		// trailer, is accepted by more S3-compatible servers.
		sum := sha256.Sum256(data)
		in.ChecksumAlgorithm = types.ChecksumAlgorithmSha256
		in.ChecksumSHA256 = aws.String(base64.StdEncoding.EncodeToString(sum[:]))
	}
	if ifNoneMatch {
		in.IfNoneMatch = aws.String("*")
	}
	if c.b.cfg.Encrypt {
		in.ServerSideEncryption = types.ServerSideEncryptionAes256
		if c.b.cfg.KMSKeyID != "" {
			in.ServerSideEncryption = types.ServerSideEncryptionAwsKms
			in.SSEKMSKeyId = aws.String(c.b.cfg.KMSKeyID)
		}
	}
	if c.b.cfg.ACL != "" {
		in.ACL = types.ObjectCannedACL(c.b.cfg.ACL)
	}
	_, err := c.b.s3.PutObject(ctx, in)
	return err
}

// Put replaces the state object; S3 writes objects whole, so a failed
// write leaves the previous one.
func (c *client) Put(ctx context.Context, data []byte) hcl.Diagnostics {
	if err := c.put(ctx, c.key, data, false); err != nil {
		return c.b.apiDiags("Writing the state", c.Where(), err)
	}
	return nil
}

func (c *client) Delete(ctx context.Context) hcl.Diagnostics {
	if _, err := c.b.s3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(c.b.cfg.Bucket), Key: aws.String(c.key)}); err != nil {
		return c.b.apiDiags("Deleting the workspace", c.Where(), err)
	}
	return nil
}

// Lock creates the lock object only if it does not exist; without
// use_lockfile there is no locking, as in OpenTofu.
func (c *client) Lock(ctx context.Context, info *backend.LockInfo) hcl.Diagnostics {
	if !c.b.cfg.UseLockfile {
		return nil
	}
	info.Path = c.Where()
	err := c.put(ctx, c.lockKey(), backend.MarshalLockInfo(info), true)
	if err == nil {
		return nil
	}
	if !isPreconditionFailed(err) {
		return c.b.apiDiags("Locking the state", c.b.url(c.lockKey()), err)
	}
	holder, herr := c.holder(ctx)
	reason := ""
	if herr != nil {
		reason = "its lock info cannot be read: " + herr.Error()
	}
	return backend.LockConflict(c.Where(), holder, reason)
}

// isPreconditionFailed reports the answer to a conditional write whose
// object exists (412), or one racing another conditional write (409).
func isPreconditionFailed(err error) bool {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode() {
		case "PreconditionFailed", "ConditionalRequestConflict":
			return true
		}
	}
	var respErr interface{ HTTPStatusCode() int }
	if errors.As(err, &respErr) {
		code := respErr.HTTPStatusCode()
		return code == http.StatusPreconditionFailed || code == http.StatusConflict
	}
	return false
}

// holder reads the lock object's lock info and its ETag.
func (c *client) holder(ctx context.Context) (*backend.LockInfo, error) {
	info, _, err := c.readLock(ctx)
	return info, err
}

func (c *client) readLock(ctx context.Context) (*backend.LockInfo, *string, error) {
	out, err := c.b.s3.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(c.b.cfg.Bucket), Key: aws.String(c.lockKey())})
	if err != nil {
		return nil, nil, err
	}
	defer out.Body.Close()
	data, err := io.ReadAll(io.LimitReader(out.Body, 1<<20))
	if err != nil {
		return nil, nil, err
	}
	info, err := backend.ParseLockInfo(data)
	return info, out.ETag, err
}

// Unlock deletes the lock object if it holds the given ID.
func (c *client) Unlock(ctx context.Context, id string) hcl.Diagnostics {
	if !c.b.cfg.UseLockfile {
		return nil
	}
	holder, etag, err := c.readLock(ctx)
	if err != nil {
		var noKey *types.NoSuchKey
		if errors.As(err, &noKey) {
			return backend.Errorf("Error releasing the state lock", "There is no lock object %s to release (lock ID %q): it was already removed.", c.b.url(c.lockKey()), id)
		}
		return backend.Errorf("Error releasing the state lock",
			"The lock object %s cannot be read: %s. Inspect it, and delete it by hand if you are sure no operation is running.", c.b.url(c.lockKey()), err)
	}
	if holder.ID != id {
		return backend.Errorf("Error releasing the state lock",
			"The lock of %s is held by another operation, not by lock ID %q.\n\nLock Info:\n%s", c.Where(), id, holder.String())
	}
	// If-Match keeps the delete from removing a lock someone else took
	// between the read and the delete, where the server supports it.
	if _, err := c.b.s3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(c.b.cfg.Bucket), Key: aws.String(c.lockKey()), IfMatch: etag}); err != nil {
		if isPreconditionFailed(err) {
			return backend.Errorf("Error releasing the state lock", "The lock object %s changed while it was being released: another operation took the lock. Nothing was removed.", c.b.url(c.lockKey()))
		}
		return c.b.apiDiags("Releasing the state lock", c.b.url(c.lockKey()), err)
	}
	return nil
}
