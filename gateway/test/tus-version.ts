export const TUS_VERSION = "1.0.0";
