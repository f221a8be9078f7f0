package org.apache.kafka.common.annotation;
public class InterfaceStability { public @interface Unstable {} public @interface Evolving {} public @interface Stable {} }
