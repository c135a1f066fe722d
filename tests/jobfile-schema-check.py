#!/usr/bin/env python3
"""Validate YAML job files against docs/jobfile.schema.json, as a YAML editor would.
Usage: jobfile-schema-check.py SCHEMA FILE... ; prints one line per problem (FILE: path:
message) and exits 1 when any file is invalid, 0 when all are valid."""
import json
import sys

import jsonschema
import yaml


def main():
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    bad = 0
    for path in sys.argv[2:]:
        with open(path) as f:
            doc = yaml.safe_load(f)
        for err in validator.iter_errors(doc):
            where = "/".join(str(p) for p in err.absolute_path)
            print(f"{path}: {where}: {err.message[:200]}")
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
