// Node 20 is supported until the pinned AWS SDK needs 22 (README); its upgrade notice only clutters test output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
