"""network front-ends: protocols, servers, clients"""
