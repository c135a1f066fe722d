/* The version of iotrial, printed by --version and recorded in results.json. */
#ifndef IOTRIAL_VERSION_H
#define IOTRIAL_VERSION_H

#define IOTRIAL_VERSION "0.1.0"

#endif
