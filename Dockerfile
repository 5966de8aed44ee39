# The release image, built by goreleaser (dockers_v2 in .goreleaser.yaml) from
# the static binary it has built for each platform: nothing but limitcheck and
# its licence (and limitcheck-cel, the helper it starts for CRDs' rules), run
# as a non-root user.
#   docker run --rm -v "$PWD":/work -w /work limitcheck/limitcheck check .
FROM scratch
ARG TARGETPLATFORM
COPY LICENSE /LICENSE
COPY $TARGETPLATFORM/limitcheck /limitcheck
COPY $TARGETPLATFORM/limitcheck-cel /limitcheck-cel
USER 65532:65532
WORKDIR /work
ENTRYPOINT ["/limitcheck"]
